/**
 * The OS keychain through keytar (Secret Service on Linux, Keychain on macOS, Credential
 * Manager on Windows). Opening probes the keychain so that a missing or locked Secret Service
 * falls back at start instead of failing at the first login.
 */
import type * as KeytarModule from 'keytar';
import type { TokenStore } from './token-store';

type Keytar = typeof KeytarModule;

/** Opens the keychain store; rejects when no keychain answers. */
export async function openKeytarStore(timeoutMs = 5_000): Promise<TokenStore> {
  const mod = (await import('keytar')) as Keytar & { default?: Keytar };
  const keytar = mod.default ?? mod;
  // A locked or absent Secret Service can hang instead of failing: bound the probe.
  await Promise.race([
    keytar.findCredentials('Laneway probe'),
    new Promise((_, reject) => setTimeout(() => reject(new Error('the keychain did not answer')), timeoutMs).unref()),
  ]);
  return {
    kind: 'keychain',
    get: (service, account) => keytar.getPassword(service, account),
    set: (service, account, secret) => keytar.setPassword(service, account, secret),
    async delete(service, account) {
      await keytar.deletePassword(service, account);
    },
  };
}
