/** Helpers for identity tests: a service with accounts, logins and JSON calls. */
import { postLogin, postSetup, postUsers } from '../../../src/shared/service-api/endpoints';
import { callAs } from '../../helpers/call-as';
import type { TestService } from '../../helpers/test-service';

export interface Session {
  username: string;
  token: string;
  cookie: string;
  id: number;
}

/** Calls the service with JSON and an optional bearer token; returns status, body and headers. */
export async function call(
  service: TestService,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<{
  status: number;
  body: Record<string, unknown> & { items?: Array<Record<string, unknown>> };
  headers: Headers;
}> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await service.api(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  if (text) body = JSON.parse(text) as Record<string, unknown>;
  return { status: res.status, body, headers: res.headers };
}

/** Creates the first account (admin) through /api/setup and logs in. */
export async function setupAdmin(service: TestService, username = 'admin'): Promise<Session> {
  const res = await callAs(service, null, postSetup, {
    body: { username, password: 'correct horse', email: `${username}@lab.test`, name: 'Admin' },
  });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return login(service, username, 'correct horse');
}

/** Logs in; returns the access token, the refresh cookie pair and the user id. */
export async function login(service: TestService, username: string, password: string): Promise<Session> {
  const res = await callAs(service, null, postLogin, { body: { username, password } });
  if (!res.ok) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { username, token: res.body.token, cookie: setCookie.split(';')[0]!, id: res.body.user.id };
}

/** An admin creates a user, who then logs in. */
export async function addUser(
  service: TestService,
  admin: Session,
  username: string,
  extra: { can_run_pipelines?: boolean; email?: string } = {},
): Promise<Session> {
  const res = await callAs(service, admin, postUsers, {
    body: {
      username,
      password: 'password-' + username,
      email: extra.email ?? `${username}@lab.test`,
      name: username,
      ...extra,
    },
  });
  if (res.status !== 201) throw new Error(`create ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return login(service, username, 'password-' + username);
}
