#!/usr/bin/env node
// The `laneway` command. It runs the built JavaScript in out/cli (build-cli.mjs), never the
// TypeScript sources: the bundle is checked against its sources at each start (build-manifest.mjs,
// a stat per input) and made again first when they changed, so a stale bundle never runs; when
// the sources do not build, the command says why and stops. `laneway start` also checks the
// app's electron-vite build (app-build.mjs) and makes it when missing or stale.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { buildCli, cliDir, freshCliBuild, ONE_SHOT } from './build-cli.mjs';

/** Commands whose work is done when main() returns (no server, no open connection). */
const ENDS_AT_ONCE = new Set(['demux', 'qc']);

let build = freshCliBuild(undefined, process.argv[2]);
if (!build) {
  try {
    build = await buildCli();
  } catch (err) {
    process.stderr.write(`laneway: the command line does not build from the sources:\n${err.message}\n`);
    process.exit(1);
  }
}
if (process.argv[2] === 'start') {
  const { ensureAppBuild } = await import('./app-build.mjs');
  if (!(await ensureAppBuild())) process.exit(1);
}
// A command with a bundle of its own (build-cli.mjs, ONE_SHOT) runs from it, without the table.
const bundle = Object.hasOwn(ONE_SHOT, process.argv[2] ?? '') ? `${ONE_SHOT[process.argv[2]]}.js` : 'index.js';
// eslint-disable-next-line no-restricted-syntax -- this project's own bundle, named by its source hash
const { main } = await import(pathToFileURL(join(cliDir(), build.dir, bundle)).href);
process.exitCode = await main(process.argv.slice(2));
// A one-shot command that has written everything ends now: Node's own teardown (the heap, the
// thread pool) cost some 8 ms of a 250 ms `laneway demux`, which labs run once per lane. Output
// still queued for a pipe (macOS, Windows) waits for the natural end instead.
if (ENDS_AT_ONCE.has(process.argv[2]) && !process.stdout.writableLength && !process.stderr.writableLength) {
  process.exit();
}
