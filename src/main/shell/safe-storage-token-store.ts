/**
 * The Electron shell's token store fallback: refresh tokens encrypted with safeStorage in a
 * 0600 file, used when the OS keychain does not answer. The core never imports electron; the
 * shell injects this candidate.
 */
import { safeStorage } from 'electron';
import { join } from 'node:path';
import { openCipherFileStore, type TokenStore } from '../core/index';

/** The safeStorage candidate for the core's token store choice. */
export function safeStorageCandidate(stateDir: string): { name: string; open: () => Promise<TokenStore> } {
  return {
    name: 'safe-storage',
    open: async () => openCipherFileStore(join(stateDir, 'tokens.enc.json'), safeStorage),
  };
}
