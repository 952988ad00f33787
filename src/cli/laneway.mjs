#!/usr/bin/env node
// The `laneway` command. It runs the TypeScript sources through tsx's loader so that the CLI,
// the service and the desktop core need no separate build step (see README, decisions).
// Commands whose start-up is a large share of their run (`demux`) start from a cached bundle
// of the same sources instead (fast-start.mjs), falling back to tsx.
const FAST_COMMANDS = new Set(['demux']);

let main = null;
if (FAST_COMMANDS.has(process.argv[2]) && !process.env.LANEWAY_NO_FAST_START) {
  const { bundledMain } = await import('./fast-start.mjs');
  main = await bundledMain();
}
if (!main) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./index.ts'));
}
process.exitCode = await main(process.argv.slice(2));
