/**
 * The test harness's own promise: node tests run under a D-Bus session with an unlocked
 * gnome-keyring, so keytar reaches the real Secret Service. If this fails, the keychain
 * tests of the desktop core would be testing nothing.
 */
import { describe, expect, it } from 'vitest';

const underHarness = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS && process.env.LANEWAY_KEYRING_PASSWORD);

describe.runIf(underHarness)('real keychain through keytar', () => {
  it('stores, reads and deletes a secret in gnome-keyring', async () => {
    const keytar = (await import('keytar')).default;
    const service = `laneway-test-${process.pid}`;
    await keytar.setPassword(service, 'harness', 's3cret');
    expect(await keytar.getPassword(service, 'harness')).toBe('s3cret');
    expect(await keytar.deletePassword(service, 'harness')).toBe(true);
    expect(await keytar.getPassword(service, 'harness')).toBeNull();
  });
});
