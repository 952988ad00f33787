// The command line's bundle: the CLI, the service entry the desktop core starts, and every
// worker and thread entry, bundled by esbuild into out/cli/<source hash>/ (ES modules, split
// into chunks so that each command loads only its own code). Packages are bundled too: resolving
// and reading some 2,000 files of node_modules at each start was about 40% of the service's
// start-up; native modules and build tools stay external. Every entry lands flat in one folder, as in electron-vite's
// out/main, so that src/node/node-entry.ts and start-thread.ts find a worker by its base name
// beside the running chunk. out/cli/current.json (build-manifest.mjs) names the build and its
// inputs; a folder per source hash means a running `laneway serve` keeps its own files while a
// newer build is made beside it.
//
// `node src/cli/build-cli.mjs` builds when the sources changed (npm's prepare, npm run build, the
// test suite's global setup); `--force` builds anyway.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  changedInput,
  inputRecords,
  modifiedSince,
  readManifest,
  sourceHash,
  writeJsonAtomic,
} from './build-manifest.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const PROJECT_ROOT = resolve(here, '..', '..');

/** Output name (the base name node-entry.ts looks for) → source. */
export const CLI_ENTRIES = {
  index: 'src/cli/index.ts',
  entry: 'src/service/entry.ts',
  'demux-worker': 'src/service/tools/demux/demux-worker.ts',
  'demux-output-thread': 'src/service/tools/demux/demux-output-thread.ts',
  'qc-worker': 'src/service/tools/qc/qc-worker.ts',
  'qc-thread': 'src/service/tools/qc/qc-thread.ts',
  'trim-worker': 'src/service/tools/trim/trim-worker.ts',
  'sheet-parse-thread': 'src/service/tools/demux/sheet-parse-thread.ts',
};

/**
 * Commands run from a bundle of their own, one file without chunks (command → output name):
 * laneway.mjs loads it instead of the command table. For the commands labs run once per file,
 * where the ESM loader's round per chunk is a share of the whole run (one-shot-demux.ts).
 */
export const ONE_SHOT = { demux: 'one-shot-demux', qc: 'one-shot-qc' };
const ONE_SHOT_SOURCES = Object.fromEntries(Object.values(ONE_SHOT).map((name) => [name, `src/cli/${name}.ts`]));

/**
 * Files esbuild reads besides the sources, and this builder: a change to them is a change of
 * build. The bundled packages are not listed file by file (2,000 stats at every start): the lock
 * file names their versions.
 */
const SETTINGS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'src/cli/build-cli.mjs',
  'src/cli/build-manifest.mjs',
];

/** Loaded from node_modules at run time: native addons, and tools only a source run or a build uses. */
const EXTERNAL = ['better-sqlite3', 'keytar', 'electron', 'esbuild', 'tsx', 'vite', 'fsevents'];

/** Bundled CommonJS packages call `require` (Node's built-ins, their JSON); ES modules have none. */
const REQUIRE_BANNER =
  "import { createRequire as __lanewayCreateRequire } from 'node:module'; const require = __lanewayCreateRequire(import.meta.url);";

/**
 * Node built-ins a one-shot bundle loads on first use instead of at start: most runs never use
 * them (gzip lanes and workbooks use zlib, gzip samples readline, large inline lanes the output
 * thread), and loading them before `main` cost some 4 ms of each `laneway demux` (compiled
 * from Node's own sources on demand, unlike the modules in its start-up snapshot).
 */
export const LAZY_BUILTINS = ['node:zlib', 'node:readline', 'node:worker_threads', 'node:fs/promises'];

/**
 * esbuild plugin: each lazy built-in becomes a module of the same exported functions and classes,
 * each loading the real module at its first call (`new` still constructs). A value that is not
 * a function has no stand-in, so a bundle importing one fails to build rather than loading late.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join('|').replace(/\//g, '\\/')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const real = createRequire(import.meta.url)(args.path);
      const names = Object.keys(real).filter((k) => k !== 'default' && typeof real[k] === 'function');
      const body = names.map(
        (k) =>
          `export function ${k}(...a) { const f = real()[${JSON.stringify(k)}]; return new.target ? new f(...a) : f.apply(this, a); }`,
      );
      return {
        contents: [
          `import { createRequire } from 'node:module';`,
          `let m;`,
          `const real = () => (m ??= createRequire(import.meta.url)(${JSON.stringify(args.path)}));`,
          ...body,
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/** Builds kept besides the current one (a long-running process may still load from them). */
const KEEP_BUILDS = 2;

export const cliDir = (root = PROJECT_ROOT) => join(root, 'out', 'cli');
export const cliManifestFile = (root = PROJECT_ROOT) => join(cliDir(root), 'current.json');

/**
 * The current build's manifest when it matches the sources, else null. For a one-shot `command`
 * only the sources its bundle and threads were made from are checked (and the settings): a
 * change elsewhere (the service, another command) cannot change what it runs, and stating the
 * other four hundred inputs was 4 ms of each `laneway demux`. The build made for it stays
 * stale for the rest, which the next other command rebuilds.
 */
export function freshCliBuild(root = PROJECT_ROOT, command = undefined) {
  const manifest = readManifest(cliManifestFile(root));
  if (!manifest || !existsSync(join(cliDir(root), manifest.dir, 'index.js'))) return null;
  const only = command !== undefined && Object.hasOwn(ONE_SHOT, command) ? manifest.oneShot?.[command] : undefined;
  if (only && existsSync(join(cliDir(root), manifest.dir, `${ONE_SHOT[command]}.js`))) {
    const used = new Set([...only, ...SETTINGS]);
    const inputs = manifest.inputs.filter(([path]) => used.has(path));
    return changedInput(root, { ...manifest, inputs }) === null ? manifest : null;
  }
  return changedInput(root, manifest) === null ? manifest : null;
}

/** The sources (not packages) an output of a metafile was made from, with every chunk it imports. */
function sourcesOf(metafile, output) {
  const outputs = metafile.outputs;
  const start = Object.keys(outputs).find((k) => k.endsWith(`/${output}.js`));
  const seen = new Set();
  const sources = new Set();
  for (const stack = start ? [start] : []; stack.length;) {
    const k = stack.pop();
    if (seen.has(k)) continue;
    seen.add(k);
    for (const input of Object.keys(outputs[k].inputs)) if (!isPackage(input)) sources.add(input);
    for (const im of outputs[k].imports) if (!im.external && outputs[im.path]) stack.push(im.path);
  }
  return sources;
}

/** The worker and thread entries (CLI_ENTRIES' names) that these sources name as a sibling file. */
function threadsNamedIn(root, sources) {
  const names = Object.keys(CLI_ENTRIES).filter((n) => n !== 'index');
  const named = new Set();
  for (const source of sources) {
    const text = readFileSync(resolve(root, source), 'utf8');
    for (const n of names) if (new RegExp(`['"\`]\\./${n}(\\.js)?['"\`]`).test(text)) named.add(n);
  }
  return [...named];
}

/** Inputs that are not files of the project: packages, and the lazy built-ins' stand-ins. */
const isPackage = (path) => path.startsWith('lazy-builtin:') || path.split(/[\\/]/).includes('node_modules');

/** Bundles the sources; resolves with the new manifest. Throws esbuild's errors as one message. */
export async function buildCli(root = PROJECT_ROOT) {
  const esbuild = await import('esbuild');
  const out = cliDir(root);
  mkdirSync(out, { recursive: true });
  const started = Date.now();
  const tmp = join(out, `.tmp-${process.pid}-${started}`);
  let result;
  let oneShot;
  try {
    const common = {
      absWorkingDir: root,
      outdir: tmp,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: EXTERNAL,
      banner: { js: REQUIRE_BANNER },
      metafile: true,
      logLevel: 'silent',
    };
    const entries = (table) => Object.fromEntries(Object.entries(table).map(([name, src]) => [name, join(root, src)]));
    const [split, single] = await Promise.all([
      esbuild.build({ ...common, entryPoints: entries(CLI_ENTRIES), splitting: true, chunkNames: 'chunk-[hash]' }),
      esbuild.build({ ...common, entryPoints: entries(ONE_SHOT_SOURCES), splitting: false, plugins: [lazyBuiltins] }),
    ]);
    result = { metafile: { inputs: { ...split.metafile.inputs, ...single.metafile.inputs } } };
    oneShot = Object.fromEntries(
      Object.entries(ONE_SHOT).map(([command, output]) => {
        const used = sourcesOf(single.metafile, output);
        // The thread entries its sources start (found beside the bundle by name: './qc-thread.js',
        // './demux-output-thread'), and theirs in turn, come from the chunked build.
        for (const seen = new Set(); ;) {
          const threads = threadsNamedIn(root, used).filter((t) => !seen.has(t));
          if (threads.length === 0) break;
          for (const t of threads) {
            seen.add(t);
            for (const p of sourcesOf(split.metafile, t)) used.add(p);
          }
        }
        return [command, [...used].map((p) => relative(root, resolve(root, p))).sort()];
      }),
    );
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    const errors = (err.errors ?? []).map((e) => `${e.location?.file ?? ''}:${e.location?.line ?? ''}: ${e.text}`);
    throw new Error(errors.length ? errors.join('\n') : err.message, { cause: err });
  }
  const sources = Object.keys(result.metafile.inputs).filter((p) => !isPackage(p));
  const records = inputRecords(root, [...sources, ...SETTINGS]);
  const hash = sourceHash(records, `esbuild ${esbuild.version}`);
  const dir = hash.slice(0, 16);
  const manifest = { version: 1, dir, hash, builtAt: new Date().toISOString(), inputs: records, oneShot };
  if (existsSync(join(out, dir, 'index.js'))) rmSync(tmp, { recursive: true, force: true });
  else {
    try {
      renameSync(tmp, join(out, dir));
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another process made the same build first
    }
  }
  // A source saved while bundling may not be in the bundle: use the build this once, never record it.
  if (!modifiedSince(records, started)) writeJsonAtomic(cliManifestFile(root), manifest);
  prune(out, dir);
  return manifest;
}

/** The fresh build, made when missing or stale. */
export async function ensureCli(root = PROJECT_ROOT) {
  return freshCliBuild(root) ?? (await buildCli(root));
}

function prune(out, current) {
  const entries = readdirSync(out, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== current)
    .map((d) => ({ name: d.name, at: statSync(join(out, d.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  const hour = 60 * 60 * 1000;
  // Half-made builds are another process's work in progress, unless abandoned long ago.
  const doomed = [
    ...entries.filter((b) => b.name.startsWith('.tmp-') && Date.now() - b.at > hour),
    ...entries.filter((b) => !b.name.startsWith('.tmp-')).slice(KEEP_BUILDS),
  ];
  for (const b of doomed) rmSync(join(out, b.name), { recursive: true, force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  try {
    const fresh = force ? null : freshCliBuild();
    const m = fresh ?? (await buildCli());
    console.error(`laneway: command line ${fresh ? 'up to date' : 'built'} in out/cli/${m.dir}`);
  } catch (err) {
    console.error(`laneway: the command line does not build from the sources:\n${err.message}`);
    process.exitCode = 1;
  }
}
