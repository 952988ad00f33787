/**
 * A Vite plugin for the renderer's build: the endpoint descriptors (src/shared/service-api/endpoints)
 * reach the bundle as plain data, each as its method, path and operationId (and whether it takes a
 * multipart form), which is all the renderer's client reads at run time. The types still come
 * from the real modules (TypeScript reads the source), so a call site stays typed by the schemas;
 * only the schemas themselves and the schema library stay out of the window's JavaScript.
 *
 * Each descriptor module is evaluated once at build time (bundled by esbuild into one CommonJS
 * function with the schema library inside), so the slim table is the real descriptors' values,
 * never a second list to keep in step.
 */
import { build } from 'esbuild';

const DESCRIPTORS = /[\\/]src[\\/]shared[\\/]service-api[\\/]endpoints[\\/][^\\/]+\.ts$/;

const isEndpoint = (v) => v && typeof v === 'object' && typeof v.method === 'string' && typeof v.path === 'string';

/** The run-time part of a descriptor, or of an object of descriptors (sharing.projects.share). */
function slim(value) {
  if (isEndpoint(value)) {
    const { method, path, operationId, multipart } = value;
    return { method, path, operationId, ...(multipart ? { multipart: true } : {}) };
  }
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, slim(v)]));
  return value;
}

/** The module's exports, evaluated (the bundle imports nothing: it is data and the schema library). */
async function evaluate(file) {
  const out = await build({
    entryPoints: [file],
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const module = { exports: {} };
  new Function('module', 'exports', out.outputFiles[0].text)(module, module.exports);
  return module.exports;
}

/** The plugin: loads every descriptor module as its slim table. */
export function slimEndpoints() {
  return {
    name: 'laneway-slim-endpoints',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0];
      if (!DESCRIPTORS.test(file)) return null;
      const exports = await evaluate(file);
      return Object.entries(exports)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(slim(value))};`)
        .join('\n');
    },
  };
}
