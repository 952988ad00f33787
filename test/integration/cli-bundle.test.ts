/**
 * `laneway` runs built JavaScript (out/cli, src/cli/build-cli.mjs), never the TypeScript sources,
 * and never a bundle older than its sources: a changed source is built before the command runs,
 * a touched but unchanged one is not, and sources that do not build stop the command with the
 * compiler's message. `--help` and `--version` load the command table and nothing else.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import appConfig from '../../electron.vite.config';
import { CLI_ENTRIES, freshCliBuild, LAZY_BUILTINS } from '../../src/cli/build-cli.mjs';
import { LANEWAY_BIN } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

const root = fileURLToPath(new URL('../..', import.meta.url));
const importLog = fileURLToPath(new URL('../helpers/import-log/register.mjs', import.meta.url));

/** Runs `node [nodeArgs] bin args` to its exit. */
function run(bin: string, args: string[], nodeArgs: string[] = [], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('the laneway bundle', () => {
  const dir = tempDir('laneway-bundle-');
  afterAll(() => dir.remove());

  it('answers --help and --version from the command table alone', async () => {
    const log = join(dir.path, 'imports.log');
    for (const args of [['--help'], ['--version']]) {
      writeFileSync(log, '');
      const r = await run(LANEWAY_BIN, args, ['--import', importLog], { LANEWAY_IMPORT_LOG: log });
      expect(r.code).toBe(0);
      const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      const ours = urls.filter((u) => !u.startsWith('node:') && !u.includes('/test/helpers/import-log/'));
      // The start-up check (laneway.mjs and its two helpers) and the built entry: no source, no package.
      expect(ours.filter((u) => u.includes('/node_modules/') || u.endsWith('.ts'))).toEqual([]);
      expect(
        ours
          .filter((u) => u.includes('/src/'))
          .map((u) => u.split('/src/')[1])
          .sort(),
      ).toEqual(['cli/build-cli.mjs', 'cli/build-manifest.mjs', 'cli/laneway.mjs']);
      const built = [...new Set(ours.filter((u) => u.includes('/out/cli/')).map((u) => u.split('/').pop()))];
      expect(built[0]).toBe('index.js');
      // Besides the table: esbuild's runtime helpers (a 2 KB chunk every entry shares), and for
      // --version the constant (a stub chunk and the small shared chunk holding it). No import
      // of theirs reaches a package or a command.
      expect(built.length).toBeLessThanOrEqual(args[0] === '--help' ? 2 : 4);
      for (const f of built.slice(1))
        expect(readFileSync(new URL(ours.find((u) => u.endsWith(`/${f!}`))!)).length).toBeLessThan(3000);
    }
  });

  it.each([
    ['demux', 'one-shot-demux.js', /^Usage: laneway demux --sheet SHEET --input R1 /],
    ['qc', 'one-shot-qc.js', /^Usage: laneway qc FILE /],
  ])('runs `laneway %s` from its one-file bundle, without the table or any chunk', async (command, file, usage) => {
    const log = join(dir.path, `imports-${command}.log`);
    writeFileSync(log, '');
    // Bad usage: the command's own parsing answers, through the same exit codes as the table's.
    const bad = await run(LANEWAY_BIN, [command, '--no-such-option'], ['--import', importLog], {
      LANEWAY_IMPORT_LOG: log,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`^laneway ${command}: `));
    const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const built = [...new Set(urls.filter((u) => u.includes('/out/cli/')).map((u) => u.split('/').pop()))];
    expect(built).toEqual([file]);
    // Built-ins most runs never use are loaded at their first call, not before `main` (build-cli.mjs).
    expect(urls.filter((u) => LAZY_BUILTINS.includes(u))).toEqual([]);
    const help = await run(LANEWAY_BIN, [command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(usage);
  });

  // A command run once per file (a lab's script uploading each file as it lands) must not load
  // the desktop: the core's headless entry (src/main/core/headless.ts) leaves out the browser
  // host, the service supervisor and the folder watchers, with chokidar and ws (issue 21).
  it.each(['upload', 'users', 'backup'])('loads for `laneway %s` no chunk of the desktop', async (command) => {
    const log = join(dir.path, `imports-${command}.log`);
    writeFileSync(log, '');
    const bad = await run(LANEWAY_BIN, [command, '--no-such-option'], ['--import', importLog], {
      LANEWAY_IMPORT_LOG: log,
    });
    expect(bad.code).toBe(2);
    const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const chunks = [...new Set(urls.filter((u) => u.includes('/out/cli/')))];
    expect(chunks.length).toBeGreaterThan(1);
    // esbuild names each bundled module in a comment line above its code.
    const bundled = chunks.flatMap((u) =>
      [...readFileSync(new URL(u), 'utf8').matchAll(/^\/\/ ((?:node_modules|src)\/\S+)$/gm)].map((m) => m[1]!),
    );
    // The chunks are read for what they hold: upload's hold the queue it runs.
    if (command === 'upload') expect(bundled.some((m) => m.startsWith('src/main/core/uploads/'))).toBe(true);
    expect(bundled.filter((m) => /^node_modules\/(chokidar|readdirp|ws)\//.test(m))).toEqual([]);
    expect(bundled.filter((m) => /^src\/main\/core\/(browser|watchers|desktop-core)/.test(m))).toEqual([]);
  });

  it('has every worker and thread entry the Electron build has (found beside the chunk by name)', () => {
    const main = (appConfig as { main: { build: { rollupOptions: { input: Record<string, string> } } } }).main;
    const electronEntries = Object.entries(main.build.rollupOptions.input)
      .filter(([name]) => name !== 'index' && name !== 'service')
      .map(([name, path]) => [name, relative(root, path)]);
    for (const [name, path] of electronEntries) expect(CLI_ENTRIES[name!], name).toBe(path);
    // The service entry: node-entry.ts finds it by the source's base name.
    expect(CLI_ENTRIES.entry).toBe('src/service/entry.ts');
  });

  describe('in a copy of the project', () => {
    // A copy of the project's sources and its built bundle (packages linked, not copied).
    const copy = join(dir.path, 'project');
    const bin = join(copy, 'src', 'cli', 'laneway.mjs');
    const table = join(copy, 'src', 'cli', 'commands', 'index.ts');
    const manifest = () =>
      JSON.parse(readFileSync(join(copy, 'out', 'cli', 'current.json'), 'utf8')) as { dir: string };
    let built = '';
    let help = '';
    beforeAll(() => {
      mkdirSync(copy);
      cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
      for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json'])
        cpSync(join(root, f), join(copy, f));
      symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
      built = freshCliBuild()!.dir;
      cpSync(join(root, 'out', 'cli', built), join(copy, 'out', 'cli', built), { recursive: true });
      cpSync(join(root, 'out', 'cli', 'current.json'), join(copy, 'out', 'cli', 'current.json'));
    });

    it('runs the same build while the sources are unchanged, whatever their times', async () => {
      // Every file copied (new modification times), none changed.
      const first = await run(bin, ['--help']);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('quality control of a FASTQ');
      expect(manifest().dir).toBe(built);
      // Sorted: readdir's order is the file system's, and the build's name is a hash.
      expect(readdirSync(join(copy, 'out', 'cli')).sort()).toEqual([built, 'current.json'].sort());
      help = first.stdout;
      // Touched again (a checkout, a save without edits).
      utimesSync(table, new Date(), new Date(Date.now() + 5000));
      expect((await run(bin, ['--help'])).stdout).toBe(help);
      expect(manifest().dir).toBe(built);
    });

    it('builds a changed source before it runs, so the change shows at once', async () => {
      writeFileSync(table, readFileSync(table, 'utf8').replace('quality control of a FASTQ', 'QC of one FASTQ'));
      const changed = await run(bin, ['--help']);
      expect(changed.code).toBe(0);
      expect(changed.stdout).toContain('QC of one FASTQ');
      expect(manifest().dir).not.toBe(built);
    });

    it('checks for `laneway demux` only the sources it runs: a change elsewhere waits, its own shows at once', async () => {
      const before = manifest().dir;
      const users = join(copy, 'src', 'cli', 'commands', 'users.ts');
      writeFileSync(users, `${readFileSync(users, 'utf8')}\n// changed\n`);
      const elsewhere = await run(bin, ['demux', '--help']);
      expect(elsewhere.code).toBe(0);
      expect(manifest().dir).toBe(before);
      // The command's own source, and the output thread it may start, each make a new build first.
      const demux = join(copy, 'src', 'cli', 'commands', 'demux.ts');
      writeFileSync(demux, readFileSync(demux, 'utf8').replace('Splits a multiplexed lane', 'Splits one lane'));
      const own = await run(bin, ['demux', '--help']);
      expect(own.code).toBe(0);
      expect(own.stdout).toContain('Splits one lane');
      const next = manifest().dir;
      expect(next).not.toBe(before);
      const thread = join(copy, 'src', 'service', 'tools', 'demux', 'demux-output-thread.ts');
      writeFileSync(thread, `${readFileSync(thread, 'utf8')}\n// changed\n`);
      expect((await run(bin, ['demux', '--help'])).code).toBe(0);
      expect(manifest().dir).not.toBe(next);
    });

    it("refuses sources that do not build, with the compiler's message, and runs no older bundle", async () => {
      const serve = join(copy, 'src', 'cli', 'commands', 'serve.ts');
      writeFileSync(serve, `${readFileSync(serve, 'utf8')}\nexport const broken = ;\n`);
      const broken = await run(bin, ['--help']);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toBe('');
      expect(broken.stderr).toMatch(/does not build from the sources:\n.*serve\.ts:\d+: /);
    });
  });
});
