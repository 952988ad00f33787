/**
 * An app of the spec file's own (not the worker's shared one), for specs that need the service
 * started differently (e.g. LANEWAY_PIPELINES_DIR on a test manifest): started in the file's
 * beforeAll with its first account, stopped in its afterAll.
 */
import { startLaneway, test, type LanewayApp } from './fixtures';
import { ensureFirstAccount } from './service-api';

/** Registers the file's hooks; the app it returns is usable from the first test on. */
export function appForFile(env: Record<string, string>): LanewayApp {
  let app: LanewayApp | undefined;
  test.beforeAll(async () => {
    app = await startLaneway({ env });
    await ensureFirstAccount(app.serviceUrl);
  });
  test.afterAll(async () => app?.stop());
  return new Proxy({} as LanewayApp, {
    get(_target, key) {
      if (!app) throw new Error("the file's app starts in beforeAll");
      const value: unknown = Reflect.get(app, key);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(app) : value;
    },
  });
}
