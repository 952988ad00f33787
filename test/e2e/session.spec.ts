import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible } from './axe';
import { expect, screenshotPath, startLaneway, startRemoteService, test, type LanewayApp } from './fixtures';
import { ensureFirstAccount, ensureUser, SECOND, TECH, tokenFor, type Account } from './service-api';

// A pristine app: no account exists yet, so the first-run screen offers to create one.
let app: LanewayApp;
let remote: { url: string; stop(): Promise<void> };
test.beforeAll(async () => {
  [app, remote] = await Promise.all([startLaneway(), startRemoteService()]);
});
test.afterAll(async () => {
  await Promise.all([app?.stop(), remote?.stop()]);
});

test.describe.configure({ mode: 'serial' });

test('first run, standalone: creates the first account and shows who is signed in', async ({ page }) => {
  await page.goto(app.url);
  const setup = page.getByTestId('setup-form');
  await expect(setup).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('first-run-setup'), fullPage: true });

  await setup.getByLabel('Username').fill(TECH.username);
  await setup.getByLabel('Full name').fill(TECH.name);
  await setup.getByLabel('E-mail').fill(TECH.email);
  await setup.getByLabel('Password').fill(TECH.password);
  await setup.getByRole('button', { name: 'Create account and sign in' }).click();

  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
  await page.getByTestId('nav-account').click();
  // The account card reads /api/me from the service with the core's access token.
  await expect(page.getByTestId('me-username')).toContainText(`(${TECH.username})`);
  await expect(page.getByTestId('token-store')).toContainText('Your sign-in is kept in');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('account-signed-in'), fullPage: true });
});

test('sign out, then a wrong password shows the service message, then sign in again', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('nav-account').click();
  await page.getByTestId('logout').click();
  const login = page.getByTestId('login-form');
  await expect(login).toBeVisible();

  await login.getByLabel('Username').fill(TECH.username);
  await login.getByLabel('Password').fill('not-the-password');
  await login.getByRole('button', { name: 'Sign in' }).click();
  const error = page.getByTestId('error-notice');
  await expect(error).toHaveAttribute('data-code', 'INVALID_CREDENTIALS');
  await expect(error).toContainText('Check the username and password');
  await page.screenshot({ path: screenshotPath('sign-in-wrong-password'), fullPage: true });

  await login.getByLabel('Password').fill(TECH.password);
  await login.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
  // A reload keeps the session: the refresh token lives in the core's token store.
  await page.reload();
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
});

test('signing in as another account: it starts at home, and Services names the account now signed in', async ({
  page,
}) => {
  await ensureUser(app.serviceUrl, await tokenFor(app.serviceUrl, TECH), SECOND);
  const signInAs = async (account: Account) => {
    await page.getByTestId('nav-account').click();
    await page.getByTestId('logout').click();
    const login = page.getByTestId('login-form');
    await login.getByLabel('Username').fill(account.username);
    await login.getByLabel('Password').fill(account.password);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('header-user')).toContainText(account.name);
    // Signed out on Account, signed in at home: the screen left behind was the account before's.
    await expect(page).toHaveURL(/#\/samples$/);
    await expect(page.getByRole('heading', { name: 'Samples & data' })).toBeVisible();
    await page.getByTestId('nav-account').click();
  };
  await page.goto(app.url);
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
  // Without a reload between: the list showed the account signed in before (one sign-in behind).
  await signInAs(SECOND);
  await expect(page.getByTestId('profiles')).toContainText(`· ${SECOND.username}`);
  await expect(page.getByTestId('profiles')).not.toContainText(TECH.username);
  await signInAs(TECH);
  await expect(page.getByTestId('profiles')).toContainText(`· ${TECH.username}`);
});

test('a remote service: add it by URL, sign in there, switch back without restarting', async ({ page }) => {
  await ensureFirstAccount(remote.url, SECOND);
  await page.goto(app.url);
  await page.getByTestId('nav-account').click();
  await page.getByLabel('Name', { exact: true }).fill('Core facility');
  await page.getByLabel('Service address').fill(remote.url);
  await page.getByRole('button', { name: 'Add and switch' }).click();

  const login = page.getByTestId('login-form');
  await expect(login).toBeVisible();
  await expect(login).toContainText('Core facility');
  await expect(login).toContainText(remote.url);
  await login.getByLabel('Username').fill(SECOND.username);
  await login.getByLabel('Password').fill(SECOND.password);
  await login.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('header-user')).toContainText(SECOND.name);
  await page.getByTestId('nav-account').click();
  await expect(page.getByTestId('me-username')).toContainText(`(${SECOND.username})`);
  await expect(page.getByTestId('profiles')).toContainText('Core facility');
  // The header names the service the screens talk to: the lab's, not the local one beside it.
  const badge = page.getByTestId('service-status');
  await expect(badge).toContainText(`remote Core facility ${remote.url}`);
  await expect(badge).not.toContainText('local');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('account-remote-profile'), fullPage: true });

  await page.getByRole('button', { name: 'Switch to This computer' }).click();
  await expect(page.getByTestId('header-user')).toContainText(TECH.name);
  await expect(page.getByTestId('me-username')).toContainText(`(${TECH.username})`);
  await expect(badge).toContainText('local');
});

test('a lab service where nothing answers: the badge says unreachable before any sign-in', async ({ page }) => {
  // An address on this computer where nothing listens: a port the system gave out, then closed.
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  await new Promise((done) => server.close(done));
  const dead = `http://127.0.0.1:${port}`;

  await page.goto(app.url);
  await page.getByTestId('nav-account').click();
  await page.getByLabel('Name', { exact: true }).fill('Switched off');
  await page.getByLabel('Service address').fill(dead);
  await page.getByRole('button', { name: 'Add and switch' }).click();
  await expect(page.getByTestId('login-form')).toContainText('Switched off');
  // It said "Service running" in green until a sign-in failed.
  const badge = page.getByTestId('service-status');
  await expect(badge).toHaveAttribute('data-state', 'unreachable');
  await expect(badge).toContainText(`Service unreachable · remote Switched off ${dead}`);
  // "Check now" asks that address, not the local service beside it (whose answer turned the
  // badge green): every state the badge takes from the click on is recorded.
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('Cannot reach the service.');
  await badge.evaluate((el) => {
    const seen: string[] = [];
    (window as unknown as { badgeStates: string[] }).badgeStates = seen;
    new MutationObserver(() => seen.push(el.getAttribute('data-state') ?? '')).observe(el, { attributes: true });
  });
  const asked = page.waitForEvent('requestfailed', (r) => r.url().startsWith(`${dead}/api/health`));
  await banner.getByRole('button', { name: 'Check now' }).click();
  await asked;
  await expect(badge).toHaveAttribute('data-state', 'unreachable');
  expect(await page.evaluate(() => (window as unknown as { badgeStates: string[] }).badgeStates)).not.toContain(
    'running',
  );

  // Back on this computer, the profile removed, for the next test in this app.
  await page.getByRole('radio', { name: /This computer/ }).check();
  await page.getByRole('button', { name: "Use this computer's service" }).click();
  await expect(page.getByTestId('header-user')).toContainText(TECH.name, { timeout: 20_000 });
  await expect(badge).toHaveAttribute('data-state', 'running');
  await page.getByTestId('nav-account').click();
  await page.getByRole('button', { name: 'Remove Switched off' }).click();
  await expect(page.getByTestId('profiles')).not.toContainText('Switched off');
});
