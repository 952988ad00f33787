import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCipherFileStore, openPlainFileStore } from '../../../src/main/core/session/file-token-store';
import { openKeytarStore } from '../../../src/main/core/session/keytar-token-store';
import { chooseTokenStore } from '../../../src/main/core/session/token-store';
import { ProfileStore, normaliseServiceUrl } from '../../../src/main/core/session/profiles';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-tokens-');
afterAll(() => dir.remove());

describe('token stores', () => {
  it('keeps tokens in a 0600 file when nothing better answers', async () => {
    const path = join(dir.path, 'tokens.json');
    const store = openPlainFileStore(path);
    await store.set('Laneway (local)', 'ada', 'secret');
    expect(await store.get('Laneway (local)', 'ada')).toBe('secret');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await store.delete('Laneway (local)', 'ada');
    expect(await store.get('Laneway (local)', 'ada')).toBeNull();
  });

  it('encrypts with an injected safeStorage cipher', async () => {
    const cipher = {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(s.split('').reverse().join('')),
      decryptString: (b: Buffer) => b.toString().split('').reverse().join(''),
    };
    const store = openCipherFileStore(join(dir.path, 'enc.json'), cipher);
    await store.set('svc', 'acct', 'token-1');
    expect(await store.get('svc', 'acct')).toBe('token-1');
    expect(store.kind).toBe('safe-storage');
    expect(() =>
      openCipherFileStore(join(dir.path, 'x.json'), { ...cipher, isEncryptionAvailable: () => false }),
    ).toThrow(/not available/);
  });

  it('uses the real keychain (gnome-keyring) first and falls back with a note', async () => {
    const chosen = await chooseTokenStore([
      { name: 'keychain', open: () => openKeytarStore() },
      { name: 'file', open: async () => openPlainFileStore(join(dir.path, 'f.json')) },
    ]);
    expect(chosen.store.kind).toBe('keychain');
    await chosen.store.set('Laneway test', 'ada', 'rt-1');
    expect(await chosen.store.get('Laneway test', 'ada')).toBe('rt-1');
    await chosen.store.delete('Laneway test', 'ada');
    expect(await chosen.store.get('Laneway test', 'ada')).toBeNull();

    const fallback = await chooseTokenStore([
      { name: 'keychain', open: () => Promise.reject(new Error('no Secret Service')) },
      { name: 'file', open: async () => openPlainFileStore(join(dir.path, 'g.json')) },
    ]);
    expect(fallback.store.kind).toBe('file');
    expect(fallback.note).toMatch(/keychain: no Secret Service/);
  });
});

describe('profiles', () => {
  it('persists profiles with the embedded one always present', () => {
    const store = new ProfileStore(dir.path);
    expect(store.active().kind).toBe('embedded');
    const remote = store.add({ name: 'Core lab', kind: 'remote', url: 'https://lab.example/api/' });
    expect(remote.url).toBe('https://lab.example');
    store.setActive(remote.id);
    const again = new ProfileStore(dir.path);
    expect(again.active().id).toBe(remote.id);
    again.remove(remote.id);
    expect(again.active().id).toBe('local');
    expect(() => again.remove('local')).toThrow();
    expect(() => normaliseServiceUrl('ftp://x')).toThrow(/http/);
    // A source the page's policy could not name (Chromium ignores IPv6 literals in CSP).
    expect(() => again.add({ name: 'v6', kind: 'remote', url: 'http://[fd00::5]:8080' })).toThrow(
      /IPv6 address \(\[fd00::5\]\).*host name/,
    );
    expect(again.list().profiles.map((p) => p.name)).not.toContain('v6');
    expect(normaliseServiceUrl('http://[fd00::5]:8080/api/')).toBe('http://[fd00::5]:8080'); // the CLI may
  });
});
