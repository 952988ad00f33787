/** Another lab's service for the specs that sign in to one (a Flow server, to the app). */
import { startRemoteService, test } from './fixtures';
import { ensureFirstAccount, SECOND } from './service-api';

/** Registers the file's hooks: one `laneway serve` for the file, whose first account is SECOND. */
export function remoteServiceForFile(): { readonly url: string } {
  let remote: Awaited<ReturnType<typeof startRemoteService>> | undefined;
  test.beforeAll(async () => {
    remote = await startRemoteService();
    await ensureFirstAccount(remote.url, SECOND);
  });
  test.afterAll(async () => {
    await remote?.stop();
  });
  return {
    get url() {
      if (!remote) throw new Error('the remote service starts in beforeAll');
      return remote.url;
    },
  };
}
