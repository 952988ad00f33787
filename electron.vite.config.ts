import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// main: the Electron shell and the service entry it runs in a utilityProcess.
// preload: CommonJS, because sandboxed preloads cannot be ES modules.
// renderer: the React app, the same bundle Electron and browser mode load.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve('src/main/index.ts'), service: resolve('src/service/entry.ts') },
      },
    },
  },
  preload: {
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
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      chunkSizeWarningLimit: 700,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
