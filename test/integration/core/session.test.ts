import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/main/core/service-client/service-client';
import { ServiceError } from '../../../src/shared/service-client/service-error';
import { openKeytarStore } from '../../../src/main/core/session/keytar-token-store';
import { Session } from '../../../src/main/core/session/session';
import type { TokenStore } from '../../../src/main/core/session/token-store';
import { startTestService, type TestService } from '../../helpers/test-service';
import { getMe } from '../../../src/shared/service-api/endpoints';

let service: TestService;
let offset = 0;
let store: TokenStore;
const KEYCHAIN = `Laneway test ${process.pid}`;

beforeAll(async () => {
  service = await startTestService({ clock: { now: () => Date.now() + offset } });
  store = await openKeytarStore();
  const res = await service.api('/api/setup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ada', password: 'correct horse', email: 'ada@lab.test', name: 'Ada' }),
  });
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await store.delete(KEYCHAIN, 'ada');
  await service.stop();
});

function makeSession(): { session: Session; authed: ServiceClient } {
  const anon = new ServiceClient({ baseUrl: service.url });
  const session = new Session({ keychainService: KEYCHAIN, store, client: () => anon });
  return { session, authed: new ServiceClient({ baseUrl: service.url, auth: session }) };
}

describe('session against the real service and the real keychain', () => {
  it('logs in, keeps the refresh token in the keychain, and restores it in a new session', async () => {
    const { session } = makeSession();
    const me = await session.login('ada', 'correct horse');
    expect(me).toMatchObject({ username: 'ada', is_admin: true });
    expect(await store.get(KEYCHAIN, 'ada')).toMatch(/\./);

    const next = makeSession();
    await next.session.restore('ada');
    expect(next.session.signedIn).toBe(true);
    const me2 = await next.authed.call(getMe);
    expect(me2.username).toBe('ada');
  });

  it('refreshes on a 401 when the access token expired on the service, and re-sends once', async () => {
    const { session, authed } = makeSession();
    await session.restore('ada');
    const first = await session.token();
    offset += 31 * 60 * 1000; // the service's clock passes the 30-minute access lifetime
    const me = await authed.call(getMe);
    expect(me.username).toBe('ada');
    expect(await session.token()).not.toBe(first);
  });

  it('refuses wrong passwords with the service code', async () => {
    const { session } = makeSession();
    const err = await session.login('ada', 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).data.code).toBe('INVALID_CREDENTIALS');
  });

  it('logout revokes the refresh token on the service and deletes it from the keychain', async () => {
    const { session } = makeSession();
    await session.restore('ada');
    const token = await store.get(KEYCHAIN, 'ada');
    await session.logout();
    expect(await store.get(KEYCHAIN, 'ada')).toBeNull();
    expect(session.signedIn).toBe(false);
    const res = await service.api('/api/token', { headers: { cookie: `service_refresh_token=${token}` } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('INVALID_REFRESH_TOKEN');
  });
});
