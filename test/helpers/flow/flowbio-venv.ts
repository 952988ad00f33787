/**
 * A Python virtual environment with Flow's real client: Debian's python3-venv, then pip
 * installs the vendored kirjava and flowbio (../shared/vendor, unmodified) from a writable copy
 * (pip builds in place); their dependencies come from the machine's configured package index.
 * The venv is cached under the temp folder, keyed by the vendored setup files, so later runs
 * reuse it; it is built in a scratch folder and renamed into place, so a half-built venv is
 * never used.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The vendored Flow client, beside the project checkout. */
export const VENDOR_DIR = resolve(__dirname, '../../../../shared/vendor');
const PACKAGES = ['kirjava-0.4.0', 'flowbio-0.9.0'];

/** Why the conformance test cannot run here, or null when it can. */
export function flowbioUnavailable(): string | null {
  if (!PACKAGES.every((p) => existsSync(join(VENDOR_DIR, p, 'setup.py')))) {
    return `the vendored Flow client is absent (${VENDOR_DIR}/{${PACKAGES.join(',')}})`;
  }
  if (spawnSync('/usr/bin/python3', ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status !== 0) {
    return 'Debian python3-venv is not installed (/usr/bin/python3 -m venv)';
  }
  return null;
}

export interface FlowbioEnv {
  python: string;
  /** The CLI, as `python -m flowbio.cli` (the venv may have moved, so its scripts' paths may not hold). */
  cli: string[];
}

/** The cached venv, built on first use. */
export function flowbioVenv(): FlowbioEnv {
  const key = createHash('sha256');
  for (const p of PACKAGES) key.update(readFileSync(join(VENDOR_DIR, p, 'setup.py')));
  const dir = join(tmpdir(), `laneway-flowbio-venv-${key.digest('hex').slice(0, 12)}`);
  const python = join(dir, 'bin', 'python');
  const env = { python, cli: [python, '-m', 'flowbio.cli'] };
  if (existsSync(join(dir, 'ready'))) return env;
  const scratch = mkdtempSync(join(tmpdir(), 'laneway-flowbio-build-'));
  try {
    const venv = join(scratch, 'venv');
    execFileSync('/usr/bin/python3', ['-m', 'venv', venv], { stdio: 'pipe' });
    const copies = PACKAGES.map((p) => {
      cpSync(join(VENDOR_DIR, p), join(scratch, p), { recursive: true });
      return join(scratch, p);
    });
    // No retries: an unreachable public index is skipped at once and the local one answers.
    execFileSync(
      join(venv, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '10', ...copies],
      {
        stdio: 'pipe',
        env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
      },
    );
    writeFileSync(join(venv, 'ready'), '');
    try {
      renameSync(venv, dir);
    } catch (err) {
      // Another test worker finished first: use theirs.
      if (!existsSync(join(dir, 'ready'))) throw err;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return env;
}

/** What a command run to its end printed, and its exit code. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cmd` (the venv's python or flowbio CLI) to its end with `env` over this process's. */
export function runToEnd(cmd: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}
