/**
 * Token stores kept in a file of the state folder, mode 0600: plain (the last resort without
 * a keychain or Electron) or encrypted by a cipher the Electron shell injects (safeStorage).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TokenStoreKind } from '../../../shared/desktop-api/contract';
import type { TokenStore } from './token-store';

/** Electron safeStorage's shape, injected so that the core never imports electron. */
export interface StringCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

function readAll(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function writeAll(path: string, data: Record<string, string>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

function fileStore(
  kind: TokenStoreKind,
  path: string,
  encode: (s: string) => string,
  decode: (s: string) => string,
): TokenStore {
  const key = (service: string, account: string) => `${service}\u0000${account}`;
  return {
    kind,
    async get(service, account) {
      const value = readAll(path)[key(service, account)];
      return value === undefined ? null : decode(value);
    },
    async set(service, account, secret) {
      const all = readAll(path);
      all[key(service, account)] = encode(secret);
      writeAll(path, all);
    },
    async delete(service, account) {
      const all = readAll(path);
      delete all[key(service, account)];
      writeAll(path, all);
    },
  };
}

/** A plain JSON file readable only by its owner. */
export function openPlainFileStore(path: string): TokenStore {
  return fileStore(
    'file',
    path,
    (s) => s,
    (s) => s,
  );
}

/** A file whose values are encrypted with Electron safeStorage. */
export function openCipherFileStore(path: string, cipher: StringCipher): TokenStore {
  if (!cipher.isEncryptionAvailable()) throw new Error('safeStorage encryption is not available');
  return fileStore(
    'safe-storage',
    path,
    (s) => cipher.encryptString(s).toString('base64'),
    (s) => cipher.decryptString(Buffer.from(s, 'base64')),
  );
}
