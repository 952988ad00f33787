/**
 * The demultiplexer's native module (native/demux-*.c, built by native/build.mjs at `npm ci`),
 * or null: not built, older than its source, or turned off with LANEWAY_DEMUX_NATIVE=0; then the
 * JavaScript paths run, with the same bytes (demux-native.test.ts). It is looked for upwards
 * from this code (the sources, the CLI's bundle in out/cli, out/main); a thread run from a
 * bundle elsewhere finds it through LANEWAY_DEMUX_NATIVE_PATH, which the first load sets.
 */
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NativeModule {
  context(
    index0: Int32Array,
    span0: number,
    index1: Int32Array | null,
    span1: number,
    single: Int32Array | null,
    pairs: Int32Array | null,
    n1: number,
    files: Int32Array,
    counts: Float64Array,
    one: Float64Array,
    two: Float64Array,
  ): unknown;
  scan(
    context: unknown,
    buf: Uint8Array,
    ops: Int32Array,
    state: Int32Array,
    chunk: number,
    unknown?: Float64Array,
  ): void;
  scanIndexReads(
    context: unknown,
    r1: Uint8Array,
    i1: Uint8Array,
    i2: Uint8Array | null,
    ops: Int32Array,
    state: Int32Array,
    chunk: number,
  ): void;
  copy(ops: Int32Array, from: number, n: number, blocks: Uint8Array[], lens: Int32Array, chunks: Buffer[]): number;
}

const MODULE = join('native', 'build', 'Release', 'laneway_demux.node');
const SOURCES = ['demux-module.c', 'demux-scan.c', 'demux-copy.c', 'demux-native.h'].map((f) => join('native', f));
const PATH_VAR = 'LANEWAY_DEMUX_NATIVE_PATH';

let loaded: NativeModule | null | undefined;

function find(): string | null {
  const given = process.env[PATH_VAR];
  if (given && existsSync(given)) return given;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 8; up++, dir = dirname(dir)) {
    const path = join(dir, MODULE);
    if (!existsSync(path)) continue;
    // A build older than its sources would not be the code under test: the JavaScript path runs.
    const built = statSync(path).mtimeMs;
    const stale = SOURCES.some((f) => existsSync(join(dir, f)) && statSync(join(dir, f)).mtimeMs > built);
    return stale ? null : path;
  }
  return null;
}

/** The native module, loaded once per thread, or null. */
export function nativeModule(): NativeModule | null {
  if (process.env.LANEWAY_DEMUX_NATIVE === '0') return null;
  if (loaded !== undefined) return loaded;
  loaded = null;
  try {
    const path = find();
    if (path) {
      loaded = createRequire(import.meta.url)(path) as NativeModule;
      process.env[PATH_VAR] ??= path;
    }
  } catch {
    loaded = null;
  }
  return loaded;
}
