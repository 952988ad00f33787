/**
 * Where the sign-in is kept, in plain words. When the keychain did not answer, the desktop core
 * reports why in the keychain library's words (often a raw D-Bus error such as "Cannot
 * autolaunch D-Bus without X11 $DISPLAY"); the technician reads what it means and what to do,
 * and the raw reason stays behind "Technical detail" for whoever supports them (issue 16 item 11).
 */
import type { AuthStatus } from '../../../../shared/desktop-api/contract';

const STORE_LABELS = {
  keychain: 'the operating system keychain',
  'safe-storage': "Electron's encrypted storage",
  file: 'a private file in your Laneway folder that only your user account can read',
} as const;

/** Renders the sentence, the advice when the keychain was skipped, and the raw detail. */
export function KeychainNote({ auth }: { auth: AuthStatus }) {
  const skipped = auth.token_store !== 'keychain';
  return (
    <div data-testid="token-store">
      <p>Your sign-in is kept in {STORE_LABELS[auth.token_store]}.</p>
      {skipped && (
        <p className="notice" data-testid="keychain-unavailable">
          The system keychain is not available in this session (no keychain service answered), so Laneway does not use
          it. You stay signed in all the same. To use the keychain, sign in to a desktop session where GNOME Keyring or
          KWallet is running and unlocked, then restart Laneway.
        </p>
      )}
      {auth.token_store_note && (
        <details>
          <summary>Technical detail</summary>
          <code className="muted">{auth.token_store_note}</code>
        </details>
      )}
    </div>
  );
}
