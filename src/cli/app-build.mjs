// The app's electron-vite build (out/main, out/preload, out/renderer) as `laneway start` needs
// it: each part records its inputs (`recordInputs`, a plugin in electron.vite.config.ts), and
// `ensureAppBuild` runs `electron-vite build` when a part is missing or its sources changed, so
// the first `npm start` builds the app and later ones start at once. One build at a time per
// project folder (a lock directory holding the builder's pid).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, watch, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { changedInput, inputRecords, readManifest, sourceHash, writeJsonAtomic } from './build-manifest.mjs';
import { PROJECT_ROOT } from './build-cli.mjs';

export const APP_PARTS = ['main', 'preload', 'renderer'];
const manifestFile = (root, part) => join(root, 'out', part, '.inputs.json');
/** Read by electron-vite besides the modules it loads. */
const SETTINGS = ['package.json', 'package-lock.json', 'electron.vite.config.ts', 'src/cli/app-build.mjs'];

/** The first part of the app build that is missing or stale (with the reason), or null. */
export function staleAppPart(root = PROJECT_ROOT) {
  for (const part of APP_PARTS) {
    const manifest = readManifest(manifestFile(root, part));
    if (!manifest) return `${part}: not built`;
    const changed = changedInput(root, manifest);
    if (changed) return `${part}: ${changed} changed`;
  }
  return null;
}

function* walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** A Vite plugin: after the part is written, its inputs go to out/<part>/.inputs.json. */
export function recordInputs(part, root = PROJECT_ROOT) {
  let ids = [];
  let publicDir = '';
  return {
    name: 'laneway-record-inputs',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir || '';
    },
    buildEnd() {
      ids = [...this.getModuleIds()];
    },
    closeBundle() {
      const files = ids
        .map((id) => id.split('?')[0])
        .filter((id) => id.startsWith(root) && !relative(root, id).startsWith('node_modules') && existsSync(id));
      if (publicDir && existsSync(publicDir)) files.push(...walk(publicDir));
      const inputs = inputRecords(root, [...files, ...SETTINGS, ...tsconfigs(root)]);
      const hash = sourceHash(inputs, part);
      writeJsonAtomic(manifestFile(root, part), {
        version: 1,
        dir: part,
        hash,
        builtAt: new Date().toISOString(),
        inputs,
      });
    },
  };
}

const tsconfigs = (root) => readdirSync(root).filter((f) => /^tsconfig.*\.json$/.test(f));

function lockHolder(lock) {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Takes the build lock; resolves false while another live process holds it. */
function tryLock(lock) {
  try {
    mkdirSync(lock);
  } catch {
    if (lockHolder(lock) !== null) return false;
    // Left by a builder that died (or not yet stamped: give it the benefit only while young).
    if (Date.now() - statSync(lock).mtimeMs < 5000) return false;
    rmSync(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

/** Resolves when the lock directory goes away (watching its parent folder, no clock). */
function lockReleased(lock) {
  return new Promise((resolve) => {
    const parent = join(lock, '..');
    const w = watch(parent, () => {
      if (!existsSync(lock) || lockHolder(lock) === null) {
        w.close();
        resolve();
      }
    });
    if (!existsSync(lock)) {
      w.close();
      resolve();
    }
  });
}

function runElectronVite(root) {
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  // Its progress goes to stderr: stdout belongs to the command (`laneway start --json`).
  const child = spawn(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  return new Promise((resolve) => child.on('exit', (code) => resolve(code === 0)));
}

/** Builds the app when it is missing or stale; resolves false (said on stderr) when the build fails. */
export async function ensureAppBuild(root = PROJECT_ROOT) {
  mkdirSync(join(root, 'out'), { recursive: true });
  const lock = join(root, 'out', '.app-build.lock');
  for (;;) {
    const stale = staleAppPart(root);
    if (!stale) return true;
    if (!tryLock(lock)) {
      process.stderr.write('laneway: waiting for another process building the app\n');
      await lockReleased(lock);
      continue;
    }
    try {
      if (!staleAppPart(root)) return true;
      process.stderr.write(`laneway: building the app (${stale}); this takes a minute once\n`);
      if (!(await runElectronVite(root))) {
        process.stderr.write('laneway: the app does not build (electron-vite build failed above)\n');
        return false;
      }
      const still = staleAppPart(root);
      if (still) {
        process.stderr.write(`laneway: the app build is still stale after building (${still})\n`);
        return false;
      }
      return true;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
