/**
 * The versions of the programs a run uses, recorded on the execution for provenance. Each
 * program is asked once per service life (`--version`; bwa only prints a usage with its version).
 */
import { spawnSync } from 'node:child_process';

const cache = new Map<string, string | null>();

/** The first line of a program's version output that carries a version number, or null. */
export function toolVersion(program: string): string | null {
  if (cache.has(program)) return cache.get(program)!;
  const args = program === 'bwa' ? [] : ['--version'];
  const r = spawnSync(program, args, { encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const text = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
  const line = text.split('\n').find((l) => /\d+\.\d+/.test(l));
  const version = r.error ? null : (line?.trim().slice(0, 200) ?? null);
  cache.set(program, version);
  return version;
}

/** Versions of every program, keyed by program name (null when it cannot tell). */
export function toolVersions(programs: readonly string[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const p of new Set(programs)) out[p] = toolVersion(p);
  return out;
}
