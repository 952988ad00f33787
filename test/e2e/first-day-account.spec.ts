/**
 * Issue 16 item 11: the Account screen changes the password (reasons on the fields), shows an
 * administrator the accounts and who may run pipelines, and says in plain words that the
 * keychain is unavailable (its own app started without a D-Bus session, as on a bare server);
 * the Settings screen holds the bandwidth schedule, concurrency, notifications and the data folder.
 */
import { expectAccessible } from './axe';
import { expect, startLaneway, test, type LanewayApp } from './fixtures';
import { shootBoth } from './first-day';
import { call, ensureFirstAccount, ensureUser, SECOND, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

let app: LanewayApp;
test.beforeAll(async () => {
  // No session bus: the keychain cannot answer, exactly as the technician saw it.
  app = await startLaneway({ env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/laneway-bus' } });
});
test.afterAll(async () => {
  await app?.stop();
});
test.describe.configure({ mode: 'serial' });

test('item 11: account: keychain in plain words, password change, accounts and who may run pipelines', async ({
  page,
}) => {
  await ensureFirstAccount(app.serviceUrl);
  await ensureUser(app.serviceUrl, await tokenFor(app.serviceUrl), SECOND);
  await signIn(page, app, TECH);
  await page.getByTestId('nav-account').click();
  await expect(page).toHaveURL(/#\/account$/);

  const store = page.getByTestId('token-store');
  await expect(store).toContainText('Your sign-in is kept in a private file');
  await expect(page.getByTestId('keychain-unavailable')).toContainText('The system keychain is not available');
  // The raw reason is there for support, folded away; nothing D-Bus is in the visible text.
  const visible = await store.evaluate((el) => (el as HTMLElement).innerText);
  expect(visible).not.toMatch(/d-?bus|org\.freedesktop|\$DISPLAY/i);

  // Password: too short, then mismatched, then changed; the session carries on.
  const form = page.getByTestId('password-form');
  await form.getByLabel('Current password').fill(TECH.password);
  await form.getByLabel('New password (at least 8 characters)').fill('short');
  await form.getByLabel('New password again').fill('short');
  await form.getByRole('button', { name: 'Change password' }).click();
  const next = form.getByLabel('New password (at least 8 characters)');
  await expect(next).toHaveAttribute('aria-invalid', 'true');
  await expect(next).toHaveAccessibleDescription(/at least 8 characters long/);
  await expect(next).toBeFocused();
  const newPassword = `${TECH.password}-new`;
  await next.fill(newPassword);
  await form.getByLabel('New password again').fill(`${newPassword}x`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByLabel('New password again')).toHaveAccessibleDescription(/does not match/);
  await form.getByLabel('New password again').fill(newPassword);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByLabel('Current password')).toHaveValue('');
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
  await tokenFor(app.serviceUrl, { ...TECH, password: newPassword });
  await expect(tokenFor(app.serviceUrl, TECH)).rejects.toThrow(/401/);

  // Accounts: the admin decides who may run pipelines.
  const users = page.getByTestId('users-admin');
  const may = users.getByLabel(`${SECOND.username} may run pipelines`);
  await expect(may).toBeChecked();
  await may.click();
  await expect(may).not.toBeChecked();
  const adminToken = await tokenFor(app.serviceUrl, { ...TECH, password: newPassword });
  const list = await call<{ items: Array<{ username: string; can_run_pipelines: boolean }> }>(
    app.serviceUrl,
    'GET',
    '/api/users/?per_page=100',
    { token: adminToken },
  );
  expect(list.items.find((u) => u.username === SECOND.username)?.can_run_pipelines).toBe(false);
  // The only administrator cannot take their own role away.
  await expect(users.getByLabel(`${TECH.username} is an administrator`)).toBeDisabled();
  await expectAccessible(page);
  await shootBoth(page, 'first-day-account');
  // Put the password back for the next test of this app.
  await call(app.serviceUrl, 'PUT', '/api/me/password', {
    token: adminToken,
    body: { current_password: newPassword, new_password: TECH.password },
  });
});

test('item 11: settings: schedule, concurrency, notifications and the data folder', async ({ page }) => {
  await signIn(page, app, TECH);
  await page.getByTestId('nav-settings').click();
  await expect(page).toHaveURL(/#\/settings$/);
  await expect(page.getByTestId('data-dir')).toContainText(app.home);

  const uploads = page.getByTestId('settings-uploads');
  await uploads.getByLabel('Parallel uploads').fill('2');
  await uploads.getByLabel('Always-on bandwidth limit (Mbit/s, empty for none)').fill('50');
  await uploads.getByRole('button', { name: 'Add a window' }).click();
  await uploads.getByLabel('Saturday in window 1').check();
  await uploads.getByLabel('From').fill('09:00');
  await uploads.getByLabel('To').fill('17:00');
  await uploads.getByLabel('Limit (Mbit/s)').fill('2');
  await uploads.getByRole('button', { name: 'Save upload settings' }).click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();

  const notify = page.getByTestId('settings-notifications');
  await notify.getByLabel(/Lanes \(uploaded/).uncheck();

  await page.reload();
  const again = page.getByTestId('settings-uploads');
  await expect(again.getByLabel('Parallel uploads')).toHaveValue('2');
  await expect(again.getByLabel('Always-on bandwidth limit (Mbit/s, empty for none)')).toHaveValue('50');
  await expect(again.getByLabel('Saturday in window 1')).toBeChecked();
  await expect(again.getByLabel('Monday in window 1')).toBeChecked();
  await expect(again.getByLabel('From')).toHaveValue('09:00');
  await expect(again.getByLabel('Limit (Mbit/s)')).toHaveValue('2');
  await expect(page.getByTestId('settings-notifications').getByLabel(/Lanes \(uploaded/)).not.toBeChecked();
  await expectAccessible(page);
  await shootBoth(page, 'first-day-settings');
});
