/**
 * What every command of the stateful suite shares: the system under test, the picking of
 * actors and targets, and the expected answer of the policy's checks.
 */
import type fc from 'fast-check';
import { accessTo, satisfies, type Kind, type Model, type Owned, type Perm, type User } from './model';
import type { Wire } from './wire';

export interface Real {
  wire: Wire;
  /** The quality-control pipeline's version id. */
  qcVersion: number;
  /** A scratch folder for generated lanes. */
  dir: string;
}

export type Command = fc.AsyncCommand<Model, Real>;

/** The n-th of a list, wrapping; undefined for an empty list. */
export const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length ? list[n % list.length] : undefined;

export const SEGMENT: Record<Kind, string> = {
  project: 'projects',
  sample: 'samples',
  data: 'data',
  execution: 'executions',
};

/** Most commands are meant to succeed; the rest try something the model says is refused. */
export interface Intent {
  /** Pick among targets the model allows (true) or among any (false). */
  valid: boolean;
  actor: number;
  target: number;
}

/** The expected status and code when `user` needs `need` on `r` (404 when invisible, as REST hides it). */
export function gate(m: Model, r: Owned, user: User, need: Perm | 'full'): { status: number; code: string } | null {
  const a = accessTo(m, r, user.id);
  if (a === null) return { status: 404, code: 'NOT_FOUND' };
  if (!satisfies(a, need)) return { status: 403, code: 'PERMISSION_DENIED' };
  return null;
}

/** A short FASTQ unique to the run and serial number: reads named r0.., sequences from a seed. */
export function fastq(tag: string, serial: number, reads: number): Buffer {
  let x = (serial * 2654435761) >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const parts: string[] = [];
  for (let i = 0; i < reads; i++) {
    let seq = '';
    for (let j = 0; j < 36; j++) seq += 'ACGT'[next() % 4];
    parts.push(`@r${i} ${tag}-${serial}\n${seq}\n+\n${'I'.repeat(36)}\n`);
  }
  return Buffer.from(parts.join(''));
}
