/**
 * The README's commands, run literally from a clean clone of HEAD. Last round every suite passed
 * while `npm start` failed for everyone (package.json named a file that was never committed):
 * the tests started the CLI by its source path, so nothing ran what a new user types. This test
 * reads the commands out of the README and runs them the way a user would, so CI fails the day
 * the README and the code disagree.
 *
 * The one liberty: `npm ci` is replaced by a link to this checkout's installed node_modules (a
 * full install builds native modules for two minutes; CI's own `npm ci` in `.ci/run` covers it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced shell blocks of one README section, in order. */
function shellBlocks(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

/** Every `laneway ...` example of the README: inline code spans and lines of shell blocks. */
function lanewayExamples(): string[] {
  const found = new Set<string>();
  for (const m of README.matchAll(/`((?:npx )?laneway [a-z][^`\n]*)`/g)) found.add(m[1]!.replace(/^npx /, ''));
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block[1]!.split('\n')) {
      const m = /^(?:\$ )?(?:npx )?(laneway [a-z].*)$/.exec(line.trim());
      if (m) found.add(m[1]!);
    }
  return [...found];
}

/** The subcommand an example names (`users add` keeps its verb: it has options of its own). */
function subcommandOf(example: string): string {
  const words = example.split(/\s+/);
  return words[1]!.replace(/[^a-z-].*$/, '');
}

interface Run {
  code: number | null;
  out: string;
}

function runIn(cwd: string, command: string, env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync('bash', ['-c', command], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The same, without blocking, so that several `npx` start-ups overlap. */
function runInAsync(cwd: string, command: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env: process.env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Starts a long-running command in its own process group; resolves with the first line matching. */
function startLongRunning(cwd: string, command: string, env: NodeJS.ProcessEnv, pattern: RegExp) {
  const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, ...env }, detached: true });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within 240 s; output:\n${out}`)), 240_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`"${command}" exited (${code}) early; output:\n${out}`));
    });
  });
  return {
    matched,
    output: () => out,
    /**
     * SIGINT to the whole group (npm, the shell it runs and laneway), as Ctrl+C in a terminal
     * does; resolves when every one of them has closed its output.
     */
    async stop(): Promise<void> {
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

describe("the README's commands, from a clean clone", () => {
  const tmp = tempDir('laneway-readme-');
  const clone = join(tmp.path, 'laneway');
  const home = join(tmp.path, 'home');

  beforeAll(() => {
    const r = runIn(tmp.path, `git clone --quiet "${ROOT}" laneway`);
    expect(r.code, r.out).toBe(0);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  });
  afterAll(() => tmp.remove());

  it('names two commands: set up and run, and run every test; CI runs the test command', () => {
    const [setup, tests, ...rest] = shellBlocks('Two commands on a fresh machine');
    expect(rest).toEqual([]);
    expect(setup).toBe('npm ci && npm start');
    expect(tests).toBe('npm test');
    // .ci/run installs the machine's packages and then runs exactly the README's test command.
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').trim().split('\n');
    expect(ci.at(-1)).toBe(tests);
    const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    // The entry that bin, start and serve name is in the clone (it once was not).
    for (const target of [pkg.bin.laneway!, ...Object.values(pkg.scripts)])
      for (const file of target.match(/[\w./-]+\.m?js\b/g) ?? [])
        expect(runIn(clone, `git ls-files --error-unmatch "${file}"`).code, `${file} is not committed`).toBe(0);
  });

  it('`npm start -- --no-open` prints a URL that serves the UI, and its service answers', async () => {
    const setup = shellBlocks('Two commands on a fresh machine')[0]!;
    const run = setup.split('&&').map((s) => s.trim());
    expect(run[0]).toBe('npm ci'); // replaced by the node_modules link (see the header)
    const start = startLongRunning(
      clone,
      `${run.slice(1).join(' && ')} -- --no-open`,
      { LANEWAY_HOME: home },
      /Embedded service: (http:\/\/\S+)/,
    );
    try {
      await start.matched;
      const ui = /Laneway is running at (http:\/\/\S+)/.exec(start.output());
      expect(ui, start.output()).not.toBeNull();
      const page = await fetch(ui![1]!);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<div id="root">/);
      // Its script is served too (the UI is really there, not just a page).
      const script = /src="([^"]+\.js)"/.exec(html)![1]!;
      const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
      const js = await fetch(new URL(script, ui![1]!), { headers: { cookie } });
      expect(js.status).toBe(200);
      const service = /Embedded service: (http:\/\/\S+)/.exec(start.output())![1]!;
      const health = await fetch(`${service}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await start.stop();
    }
    // laneway stopped itself (not killed mid-way), and took its embedded service down with it.
    expect(start.output()).toContain('SIGINT: stopping Laneway');
    const service = /Embedded service: (http:\/\/\S+)/.exec(start.output())![1]!;
    await expect(fetch(`${service}/api/health`)).rejects.toThrow();
  }, 300_000);

  it('`npm run serve -- --port P --data DIR` serves the API', async () => {
    const serve = startLongRunning(
      clone,
      `npm run serve -- --port 0 --data "${join(tmp.path, 'served')}"`,
      {},
      /listening on (http:\/\/\S+)/,
    );
    try {
      const url = (await serve.matched)[1]!;
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await serve.stop();
    }
    expect(serve.output()).toContain('SIGINT: stopping');
  }, 300_000);

  it('`npx laneway --help` and the --help of every `laneway` example exit 0 and know its options', async () => {
    const top = runIn(clone, 'npx laneway --help');
    expect(top.code, top.out).toBe(0);
    const examples = lanewayExamples();
    expect(examples.length).toBeGreaterThan(8);
    const subs = [...new Set(examples.map(subcommandOf))];
    const helps = new Map(
      await Promise.all(subs.map(async (sub) => [sub, await runInAsync(clone, `npx laneway ${sub} --help`)] as const)),
    );
    for (const example of examples) {
      const sub = subcommandOf(example);
      expect(top.out, `"${example}": laneway --help does not list ${sub}`).toContain(`laneway ${sub}`);
      const help = helps.get(sub)!;
      expect(help.code, `${example}\n${help.out}`).toBe(0);
      // Every option the README shows is one the command knows.
      for (const option of example.match(/--[a-z][a-z0-9-]*/g) ?? [])
        if (option !== '--help') expect(help.out, `"${example}" shows ${option}`).toContain(option);
    }
    // Every subcommand the CLI has is documented in the README.
    const listed = [...top.out.matchAll(/^ {2}laneway ([a-z-]+)/gm)].map((m) => m[1]!);
    for (const sub of listed) expect(subs, `README has no example of laneway ${sub}`).toContain(sub);
  }, 300_000);
});
