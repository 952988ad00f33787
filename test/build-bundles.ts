/**
 * Global setup of the node and browser tests: the command line's bundle (and, for the browser
 * tests, the app's build) made once before any test when missing or stale, so that the tests run
 * the same JavaScript `laneway` runs for a user and no test waits on a build. `laneway` checks
 * the bundle against its sources at every start anyway (src/cli/build-manifest.mjs).
 */
import { ensureAppBuild } from '../src/cli/app-build.mjs';
import { ensureCli } from '../src/cli/build-cli.mjs';

export async function buildCliBundle(): Promise<void> {
  await ensureCli();
}

export default async function buildBundles(): Promise<void> {
  await ensureCli();
  if (!(await ensureAppBuild())) throw new Error('the app does not build (see electron-vite above)');
}
