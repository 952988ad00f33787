/**
 * Password hashing with node's scrypt (memory-hard, no native dependency). Stored form:
 * `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking old hashes.
 * Every derivation runs on the service's password pool's own threads (password-pool.ts, `ctx.parts.passwords`), never on
 * libuv's threadpool, which file I/O needs.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Lane, PasswordPool } from './password-pool';

const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

function derive(
  pool: PasswordPool,
  password: string,
  salt: Buffer,
  options: { N: number; r: number; p: number },
  lane: Lane = 'priority',
): Promise<Buffer> {
  return pool.derive(
    {
      password: password.normalize('NFC'),
      salt,
      keyBytes: KEY_BYTES,
      options: { ...options, maxmem: 64 * 1024 * 1024 },
    },
    lane,
  );
}

/** Hashes a password for storage. */
export async function hashPassword(pool: PasswordPool, password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(pool, password, salt, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * True when the password matches the stored hash (constant time in the hash comparison).
 * `lane` 'normal' is for attempts from addresses that failed recently: they wait behind others.
 */
export async function verifyPassword(
  pool: PasswordPool,
  password: string,
  stored: string,
  lane: Lane = 'priority',
): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  const key = await derive(pool, password, salt, { N: n, r, p }, lane);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of nothing in particular: verified against when a username is unknown, so timing does not tell. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_BYTES).toString('base64')}`;
