/** Vitest's global setup: the command line's bundle, fresh (see build-bundles.ts). */
export { buildCliBundle as default } from './build-bundles';
