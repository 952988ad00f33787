// Builds the demultiplexer's native module (native/demux-*.c) with node-gyp, at `npm ci`
// (package.json's prepare). Never fails the install: without a compiler or Node's headers the
// JavaScript path runs instead (src/service/tools/demux/native-scan.ts says which one runs).
// Node's headers: npm_config_nodedir, else /usr when /usr/include/node has them (MACHINE.md).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const local = join(here, '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
// npm names its own node-gyp to the scripts it runs; a checkout's copy otherwise.
const gyp = [process.env.npm_config_node_gyp, local].find((p) => p && existsSync(p));
const env = { ...process.env };
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node_api.h')) env.npm_config_nodedir = '/usr';
if (!gyp) {
  console.warn('native/build.mjs: node-gyp not found; `laneway demux` uses its JavaScript path');
} else {
  const r = spawnSync(process.execPath, [gyp, 'rebuild'], { cwd: here, env, encoding: 'utf8' });
  if (r.status !== 0) {
    console.warn(
      `native/build.mjs: the native demultiplexer did not build; \`laneway demux\` uses its JavaScript path\n${(r.stderr || r.stdout || '').slice(-2000)}`,
    );
  }
}
