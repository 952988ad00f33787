/**
 * Issue 23 item 2: Account > API keys. A key is created with a name, shown once with a copy
 * button, works as a bearer credential, is listed without its secret, and stops at once when
 * revoked from the screen.
 */
import { expectAccessible } from './axe';
import { expect, startLaneway, test, type LanewayApp } from './fixtures';
import { ensureFirstAccount, TECH } from './service-api';
import { signIn } from './ui-session';

let app: LanewayApp;
test.beforeAll(async () => {
  app = await startLaneway();
});
test.afterAll(async () => {
  await app?.stop();
});

/** GET /api/me with the key as the bearer credential: the HTTP status. */
async function meStatus(key: string): Promise<number> {
  const res = await fetch(new URL('/api/me', app.serviceUrl), { headers: { authorization: `Bearer ${key}` } });
  return res.status;
}

test('create an API key, see it once, copy it, use it, revoke it', async ({ page }) => {
  await ensureFirstAccount(app.serviceUrl);
  // Reading the clipboard back is the test's check; the app itself only writes to it.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await signIn(page, app, TECH);
  await page.getByTestId('nav-account').click();
  const card = page.getByTestId('api-keys');
  await expect(card).toContainText('No API keys.');

  await card.getByTestId('api-key-name').fill('nightly sync');
  await card.getByTestId('create-api-key').click();
  const value = card.getByTestId('new-api-key-value');
  await expect(value).toHaveValue(/^lwk_[A-Za-z0-9_-]{43}$/);
  const key = await value.inputValue();
  await card.getByTestId('copy-api-key').click();
  await expect(card.getByTestId('api-key-copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await expectAccessible(page);

  expect(await meStatus(key)).toBe(200);
  const row = card.getByTestId('api-key-nightly sync');
  await expect(row).toContainText(key.slice(0, 12));
  await card.getByTestId('api-key-done').click();
  // Once dismissed, the key is nowhere on the screen.
  await expect(card.getByTestId('new-api-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await row.getByRole('button', { name: 'Revoke nightly sync' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toHaveCount(0);
  await expect(card).toContainText('No API keys.');
  expect(await meStatus(key)).toBe(401);
});
