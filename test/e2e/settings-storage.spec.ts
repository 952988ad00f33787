/**
 * Issue 24 item 5: the Settings screen shows a service administrator the free space of the
 * service's data disk and the users storing the most against their quota (GET
 * /api/admin/storage), so that a filling disk is seen before it is full.
 */
import { expect, startLaneway, test, type LanewayApp } from './fixtures';
import { ensureFirstAccount, ensureUser, fastq, SECOND, tokenFor, uploadFile } from './service-api';
import { signIn } from './ui-session';

let app: LanewayApp;
test.beforeAll(async () => {
  app = await startLaneway();
});
test.afterAll(async () => {
  await app?.stop();
});

test('an administrator sees free space and the largest users in Settings', async ({ page }) => {
  await ensureFirstAccount(app.serviceUrl);
  await ensureUser(app.serviceUrl, await tokenFor(app.serviceUrl), SECOND);
  // A colleague stores a file: the table names them with what they store and their quota.
  await uploadFile(app.serviceUrl, await tokenFor(app.serviceUrl, SECOND), 'omar.fastq', fastq(200, 3));
  await signIn(page, app);
  await page.getByTestId('nav-settings').click();
  const card = page.getByTestId('settings-service-storage');
  await expect(card.getByRole('heading', { name: 'Service storage' })).toBeVisible();
  await expect(card.getByTestId('service-free-space')).toHaveText(/^[\d.]+ (B|kB|MB|GB|TB) of [\d.]+ (B|kB|MB|GB|TB)$/);
  const row = card.getByTestId('largest-users').getByRole('row', { name: new RegExp(SECOND.username) });
  await expect(row).toContainText(/[\d.]+ (B|kB|MB)/);
  // The default quota, 100 GiB, in the app's decimal units.
  await expect(row).toContainText('107 GB');
});

test('in the browser the desktop-notification choice is shown off and disabled, saying where it applies', async ({
  page,
}) => {
  await signIn(page, app);
  await page.getByTestId('nav-settings').click();
  const box = page.getByTestId('settings-notifications').getByLabel(/Also show them as desktop notifications/);
  // Ticked and enabled, it did nothing in a browser (only the desktop app shows them).
  await expect(box).toBeDisabled();
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId('settings-notifications')).toContainText('in the desktop app; this is the browser');
});
