import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { recordInputs } from './src/cli/app-build.mjs';
import { slimEndpoints } from './src/cli/endpoint-routes.mjs';

// main: the Electron shell, the service entry it runs in a utilityProcess, and the worker
// entries the service starts as child processes or threads. Every file lands flat in out/main
// so that src/node/node-entry.ts finds a worker by its base name beside the running chunk.
// preload: CommonJS, because sandboxed preloads cannot be ES modules.
// renderer: the React app, the same bundle Electron and browser mode load.
// Each part records its inputs (src/cli/app-build.mjs) so that `laneway start` knows when it is stale.
export default defineConfig({
  main: {
    plugins: [recordInputs('main')],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          service: resolve('src/service/entry.ts'),
          'demux-worker': resolve('src/service/tools/demux/demux-worker.ts'),
          'demux-output-thread': resolve('src/service/tools/demux/demux-output-thread.ts'),
          'qc-worker': resolve('src/service/tools/qc/qc-worker.ts'),
          'qc-thread': resolve('src/service/tools/qc/qc-thread.ts'),
          'trim-worker': resolve('src/service/tools/trim/trim-worker.ts'),
          'sheet-parse-thread': resolve('src/service/tools/demux/sheet-parse-thread.ts'),
        },
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunk-[name]-[hash].js' },
      },
    },
  },
  preload: {
    plugins: [recordInputs('preload')],
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    // The endpoint descriptors reach the window as method and path only (src/cli/endpoint-routes.mjs).
    plugins: [slimEndpoints(), react(), recordInputs('renderer')],
    build: {
      outDir: 'out/renderer',
      // The window parses less (electron-vite leaves every build unminified): 250 KiB of the
      // 250 KiB budget gzipped unminified, 153 KiB minified (test/bundle-budget.mjs).
      minify: true,
      chunkSizeWarningLimit: 700,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
