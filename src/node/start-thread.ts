/**
 * Starts one of the project's own entry files as a worker thread, wherever the code runs: the
 * built `.js` beside the calling chunk (electron-vite emits every entry flat in out/main), or
 * the `.ts` source through tsx's loader registered inside the new thread (an `--import` in a
 * worker's execArgv is not applied before the entry loads on Node 20).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** `relative` is resolved against `fromUrl` without extension, e.g. `./sheet-parse-thread`. */
export function startThread(fromUrl: string, relative: string, resourceLimits?: ResourceLimits): Worker {
  const js = fileURLToPath(new URL(`${relative}.js`, fromUrl));
  if (existsSync(js)) return new Worker(js, { resourceLimits });
  const cjsApi = createRequire(import.meta.url).resolve('tsx/esm/api');
  const api = pathToFileURL(cjsApi.replace(/\.cjs$/, '.mjs')).href;
  const ts = new URL(`${relative}.ts`, fromUrl).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(ts)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}
