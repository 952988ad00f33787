/**
 * How the service last stopped, from two small files in its data folder: `service.running` is
 * written at start and removed on a clean stop, which writes `service.stopped` instead. A
 * `service.running` found at start means the previous run never reached its clean stop: it
 * crashed, was killed (SIGKILL, power loss) or its machine went down.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type PreviousStop =
  | { kind: 'first-start' }
  | { kind: 'clean'; at: string | null; reason: string | null }
  | { kind: 'crash'; started_at: string | null; pid: number | null };

const RUNNING = 'service.running';
const STOPPED = 'service.stopped';

function readJson(path: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Reads how the previous run ended and marks this one as running. */
export function markStarted(dataDir: string, now: Date, info: { pid: number; version: string }): PreviousStop {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const running = join(dataDir, RUNNING);
  const stopped = join(dataDir, STOPPED);
  let previous: PreviousStop = { kind: 'first-start' };
  if (existsSync(running)) {
    const m = readJson(running);
    previous = { kind: 'crash', started_at: str(m.started_at), pid: typeof m.pid === 'number' ? m.pid : null };
  } else if (existsSync(stopped)) {
    const m = readJson(stopped);
    previous = { kind: 'clean', at: str(m.stopped_at), reason: str(m.reason) };
  }
  rmSync(stopped, { force: true });
  writeFileSync(running, JSON.stringify({ pid: info.pid, version: info.version, started_at: now.toISOString() }), {
    mode: 0o600,
  });
  return previous;
}

/** Marks a clean stop (after the database is closed). */
export function markStopped(dataDir: string, now: Date, reason: string): void {
  writeFileSync(join(dataDir, STOPPED), JSON.stringify({ stopped_at: now.toISOString(), reason }), { mode: 0o600 });
  rmSync(join(dataDir, RUNNING), { force: true });
}

/** The previous stop in words, for the start line. */
export function describePreviousStop(p: PreviousStop): string {
  if (p.kind === 'first-start') return 'first start in this data folder';
  if (p.kind === 'clean') return `previous stop was clean (${p.reason ?? 'stopped'} at ${p.at ?? 'an unknown time'})`;
  return `previous run (pid ${p.pid ?? '?'}, started ${p.started_at ?? 'at an unknown time'}) did not stop cleanly: it crashed or was killed`;
}
