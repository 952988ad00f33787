/**
 * The first screen offers the first account only while the service has none: a lab whose
 * administrator made the accounts with `laneway users add` saw "Create the first account" on
 * every new workstation (the app guessed from its own empty profile). The real desktop core and
 * its embedded service; the account is made with the real CLI beside the running service.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireResult } from '../../../src/shared/desktop-api/client';
import type { AuthStatus } from '../../../src/shared/desktop-api/contract';
import { childServiceLauncher } from '../../../src/main/core/child-service-launcher';
import { createDesktopCore, type DesktopCore } from '../../../src/main/core/desktop-core';
import { runCliToEnd } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-first-screen-');
const serviceData = join(dir.path, 'service');
let core: DesktopCore;

async function status(): Promise<AuthStatus> {
  const res = (await core.dispatcher.dispatch('auth:status', {})) as WireResult<AuthStatus>;
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

beforeAll(async () => {
  core = createDesktopCore({
    serviceDataDir: serviceData,
    stateDir: join(dir.path, 'state'),
    launcher: childServiceLauncher(),
    shell: 'browser',
    noKeychain: true,
    log: () => {},
  });
  await core.start();
}, 60_000);
afterAll(async () => {
  await core.stop();
  dir.remove();
});

describe('the first screen', () => {
  it('offers the first account while the service has none, and sign-in once an administrator made one', async () => {
    expect(await status()).toMatchObject({ signed_in: false, needs_setup: true });
    // Asked again: still none.
    expect(await status()).toMatchObject({ needs_setup: true });

    const added = await runCliToEnd(
      ['users', 'add', '--data', serviceData, '--username', 'lab', '--email', 'lab@lab.test', '--admin'],
      { LANEWAY_PASSWORD: 'a long password' },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(await status()).toMatchObject({ signed_in: false, needs_setup: false });
  });

  it('says so on the wire for anyone: GET /api/health carries setup_open', async () => {
    const res = (await core.dispatcher.dispatch('service:read', { path: '/api/health' })) as WireResult<{
      setup_open?: boolean;
    }>;
    expect(res.ok && res.value.setup_open).toBe(false);
  });
});
