/**
 * The versions of the programs a run uses, recorded on the execution for provenance. Each
 * program is asked once per service life (`--version`; bwa only prints a usage with its
 * version), asynchronously: Snakemake's Python start-up must not hold the service's event loop.
 */
import { execFile } from 'node:child_process';

const cache = new Map<string, Promise<string | null>>();

function ask(program: string): Promise<string | null> {
  const args = program === 'bwa' ? [] : ['--version'];
  return new Promise((resolve) => {
    // bwa exits 1 after its usage text, so the exit status is not the test; the text is.
    execFile(program, args, { encoding: 'utf8', timeout: 30_000 }, (_err, stdout, stderr) => {
      const line = `${stdout ?? ''}\n${stderr ?? ''}`.split('\n').find((l) => /\d+\.\d+/.test(l));
      resolve(line ? line.trim().slice(0, 200) : null);
    });
  });
}

/** The first line of a program's version output that carries a version number, or null. */
export function toolVersion(program: string): Promise<string | null> {
  let p = cache.get(program);
  if (!p) cache.set(program, (p = ask(program)));
  return p;
}

/** Versions of every program, keyed by program name (null when it cannot tell). */
export async function toolVersions(programs: readonly string[]): Promise<Record<string, string | null>> {
  const unique = [...new Set(programs)];
  const versions = await Promise.all(unique.map(toolVersion));
  return Object.fromEntries(unique.map((p, i) => [p, versions[i]!]));
}
