/** JSON schemas for account fields, shared by setup, admin user routes and the CLI's checks. */
export const usernameSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
} as const;
export const passwordSchema = { type: 'string', minLength: 8, maxLength: 1024 } as const;
export const emailSchema = {
  type: 'string',
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]+@[^\\s@]+$',
} as const;
export const nameSchema = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** The fields every body describing a user carries (the user record and GET /api/me). */
export const userIdentityProperties = {
  id: { type: 'integer' },
  username: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  is_admin: { type: 'boolean' },
  can_run_pipelines: { type: 'boolean' },
} as const;

/** What the API shows of a user. */
export const userResponseSchema = {
  type: 'object',
  required: ['id', 'username', 'email', 'name', 'is_admin', 'can_run_pipelines', 'disabled', 'created'],
  properties: {
    ...userIdentityProperties,
    disabled: { type: 'boolean' },
    created: { type: 'string' },
  },
} as const;

/** Body of POST /api/setup and POST /api/users/. */
export const newUserBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password', 'email', 'name'],
  properties: {
    username: usernameSchema,
    password: passwordSchema,
    email: emailSchema,
    name: nameSchema,
    can_run_pipelines: { type: 'boolean' },
    is_admin: { type: 'boolean' },
  },
} as const;

const USERNAME_RE = new RegExp(usernameSchema.pattern);
const EMAIL_RE = new RegExp(emailSchema.pattern);

/** Field errors of a new account's fields (for callers that bypass HTTP validation, like the CLI). */
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
