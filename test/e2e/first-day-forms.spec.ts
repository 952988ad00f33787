/**
 * Issue 16 item 6: a refusal shows the service's reason on the field it names, the field is
 * marked invalid and takes focus, and what was typed stays (a short password at setup, a bad
 * invite address; before, "Correct the highlighted fields" highlighted nothing and the invite
 * field was wiped).
 */
import { expectAccessible } from './axe';
import { expect, startLaneway, test, type LanewayApp } from './fixtures';
import { shootBoth } from './first-day';
import { TECH } from './service-api';

let app: LanewayApp;
test.beforeAll(async () => {
  app = await startLaneway();
});
test.afterAll(async () => {
  await app?.stop();
});

test('item 6: the service reason sits on the field it names and nothing typed is wiped', async ({ page }) => {
  await page.goto(app.url);
  const setup = page.getByTestId('setup-form');
  await expect(setup).toBeVisible({ timeout: 20_000 });
  await setup.getByLabel('Username').fill(TECH.username);
  await setup.getByLabel('Full name').fill(TECH.name);
  await setup.getByLabel('E-mail').fill(TECH.email);
  await setup.getByLabel('Password').fill('short');
  await setup.getByRole('button', { name: 'Create account and sign in' }).click();

  const password = setup.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/must be at least 8 characters long/);
  await expect(password).toBeFocused();
  await expect(password).toHaveValue('short');
  await expect(setup.getByLabel('Username')).toHaveValue(TECH.username);
  await expect(page.getByTestId('error-notice')).toContainText('password: must be at least 8 characters long');
  await expect(page.getByTestId('error-notice')).not.toContainText('highlighted');
  await expectAccessible(page);
  await shootBoth(page, 'first-day-setup-short-password');

  await password.fill(TECH.password);
  await setup.getByRole('button', { name: 'Create account and sign in' }).click();
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);

  // A group invite to something that is not an address.
  await page.getByTestId('nav-groups').click();
  await page.getByLabel('New group name').fill('Bench team');
  await page.getByRole('button', { name: 'Create group' }).click();
  const detail = page.getByTestId('group-detail');
  const invite = detail.getByLabel('Invite by e-mail');
  await invite.fill('ada@lab.example, not-an-address');
  await detail.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(invite).toHaveAttribute('aria-invalid', 'true');
  await expect(invite).toHaveAccessibleDescription(/not-an-address is not an e-mail address/);
  await expect(invite).toBeFocused();
  await expect(invite).toHaveValue('ada@lab.example, not-an-address');
  await expectAccessible(page);
  await shootBoth(page, 'first-day-invite-bad-address');

  // Corrected, the invitation goes out and only then is the field cleared.
  await invite.fill('ada@lab.example');
  await detail.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(invite).toHaveValue('');
  await expect(invite).not.toHaveAttribute('aria-invalid', 'true');
  await expect(detail).toContainText('ada@lab.example');
});
