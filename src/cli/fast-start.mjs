// Starting a `laneway` command without tsx's loader. Registering tsx costs about 0.2 s of CPU
// and a loader-hooks thread before the first line of the command runs, which a short command
// like `laneway demux` (about a second of work on a lane) pays in full. Instead the CLI's
// sources are bundled by esbuild (the one tsx itself uses) into `.cache/laneway-cli/`, rebuilt
// when any input changes (sizes and modification times, checked at each start), and the
// cached JavaScript runs directly. Each module keeps its own `import.meta.url` (its source
// file's), so workers, threads and resources are found exactly as from the sources; packages
// stay external and resolve from the project's node_modules. Any failure falls back to tsx.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const cache = join(root, '.cache', 'laneway-cli');
const manifestFile = join(cache, 'manifest.json');
/** Builds older than this are removed when a new one is made (a running command may still use one). */
const KEEP_OLD_MS = 10 * 60 * 1000;

/** True when every input still has the size and modification time it had when bundled. */
function fresh(manifest) {
  return manifest.inputs.every(([path, size, mtime]) => {
    try {
      const s = statSync(path);
      return s.size === size && s.mtimeMs === mtime;
    } catch {
      return false;
    }
  });
}

function readManifest() {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    return existsSync(join(cache, manifest.dir, 'index.js')) && fresh(manifest) ? manifest : null;
  } catch {
    return null;
  }
}

/** Replaces `import.meta.url` in each source with the source file's own URL. */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

async function bundle() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const started = Date.now();
  const dir = `build-${process.pid}-${started}`;
  let result;
  try {
    result = await esbuild.build({
      entryPoints: [join(here, 'index.ts')],
      absWorkingDir: root,
      outdir: join(cache, dir),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
      plugins: [sourceUrls],
    });
  } finally {
    await esbuild.stop?.();
  }
  const files = [
    ...Object.keys(result.metafile.inputs).map((p) => (isAbsolute(p) ? p : resolve(root, p))),
    // Settings esbuild reads besides the sources.
    ...readdirSync(root)
      .filter((f) => /^tsconfig.*\.json$/.test(f) || f === 'package.json')
      .map((f) => join(root, f)),
  ];
  const inputs = files.map((path) => {
    const s = statSync(path);
    return [path, s.size, s.mtimeMs];
  });
  // A source saved while bundling may not be in the bundle: use it this once, never cache it.
  if (inputs.some(([, , mtime]) => mtime >= started)) return { dir };
  // The manifest names the new build at once (a rename is atomic); older builds go later.
  const part = `${manifestFile}.${process.pid}.part`;
  writeFileSync(part, JSON.stringify({ dir, inputs }));
  renameSync(part, manifestFile);
  for (const old of readdirSync(cache)) {
    if (!old.startsWith('build-') || old === dir) continue;
    const at = Number(old.split('-')[2]);
    if (Date.now() - at > KEEP_OLD_MS) rmSync(join(cache, old), { recursive: true, force: true });
  }
  return { dir };
}

/** The CLI's `main` from the cached bundle (made when missing or stale), or null. */
export async function bundledMain() {
  try {
    mkdirSync(cache, { recursive: true });
  } catch {
    return null; // a read-only installation: tsx it is
  }
  try {
    const manifest = readManifest() ?? (await bundle());
    // eslint-disable-next-line no-restricted-syntax -- the bundle of this room's own sources, named at run time
    const mod = await import(pathToFileURL(join(cache, manifest.dir, 'index.js')).href);
    return mod.main;
  } catch (err) {
    // Said, not hidden: the command still runs (from the sources), only slower to start.
    process.stderr.write(`laneway: starting from the sources (the start-up bundle failed: ${err.message})\n`);
    return null;
  }
}
