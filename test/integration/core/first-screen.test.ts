/**
 * The first screen offers the first account only while the service has none: a lab whose
 * administrator made the accounts with `laneway users add` saw "Create the first account" on
 * every new workstation (the app guessed from its own empty profile). The real desktop core and
 * its embedded service; the account is made with the real CLI beside the running service.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../src/shared/desktop-api/contract';
import { runCliToEnd } from '../../helpers/cli';
import { callCore, coreForFile } from './test-core';

const { dir, held } = coreForFile('laneway-first-screen-');
const serviceData = join(dir, 'service');

const status = () => callCore<AuthStatus>(held.core, 'auth:status');

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
    const url = held.core.sessions!.baseUrl()!;
    const health = (await (await fetch(`${url}/api/health`)).json()) as { setup_open?: boolean };
    expect(health.setup_open).toBe(false);
  });
});
