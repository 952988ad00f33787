/** The checks of a new account's fields, for callers that bypass HTTP validation (the CLI). */
import { EMAIL_PATTERN, USERNAME_PATTERN } from '../../shared/service-api/identity';

const USERNAME_RE = new RegExp(USERNAME_PATTERN);
const EMAIL_RE = new RegExp(EMAIL_PATTERN);

/** Field errors of a new account's fields, the same rules as the NewUserBody schema. */
export function checkNewUserFields(input: { username: string; password: string; email: string; name: string }) {
  const fields: Record<string, string> = {};
  if (!USERNAME_RE.test(input.username) || input.username.length > 64) {
    fields.username = 'letters, digits, dot, dash and underscore; at most 64 characters';
  }
  if (input.password.length < 8 || input.password.length > 1024) fields.password = 'at least 8 characters';
  if (!EMAIL_RE.test(input.email) || input.email.length > 254) fields.email = 'an e-mail address';
  if (input.name.length < 1 || input.name.length > 200) fields.name = '1 to 200 characters';
  return fields;
}
