/**
 * Where refresh tokens live, behind one small interface: the OS keychain (keytar), Electron
 * safeStorage (injected by the shell) or a 0600 file. `chooseTokenStore` picks the first that
 * answers and says why the others were skipped.
 */
import type { TokenStoreKind } from '../../../shared/desktop-api/contract';

export interface TokenStore {
  readonly kind: TokenStoreKind;
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<void>;
}

export interface ChosenStore {
  store: TokenStore;
  /** Why a preferred store was not used; null when the keychain answered. */
  note: string | null;
}

/** Candidates in order of preference; each probe throws when its store cannot serve. */
export async function chooseTokenStore(
  candidates: ReadonlyArray<{ name: string; open: () => Promise<TokenStore> }>,
): Promise<ChosenStore> {
  const skipped: string[] = [];
  for (const c of candidates) {
    try {
      const store = await c.open();
      return { store, note: skipped.length ? skipped.join('; ') : null };
    } catch (err) {
      skipped.push(`${c.name}: ${(err as Error)?.message ?? String(err)}`);
    }
  }
  throw new Error(`No token store is usable (${skipped.join('; ')})`);
}
