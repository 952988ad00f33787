/** Signing in through the UI, as a technician does. */
import { expect, type Page } from '@playwright/test';
import type { LanewayApp } from './fixtures';
import { ensureFirstAccount, TECH, type Account } from './service-api';

/** Opens the app and makes sure `account` is signed in (signing out another account first). */
export async function signIn(page: Page, app: LanewayApp, account: Account = TECH): Promise<void> {
  await ensureFirstAccount(app.serviceUrl);
  await page.goto(app.url);
  const header = page.getByTestId('header-user');
  const login = page.getByTestId('login-form');
  const setup = page.getByTestId('setup-form');
  await expect(header.or(login).or(setup)).toBeVisible({ timeout: 20_000 });
  // A fresh app offers to create the first account; this one was created over the API.
  if (await setup.isVisible()) await setup.getByRole('button', { name: /sign in instead/ }).click();
  if (await header.isVisible()) {
    if ((await header.textContent())?.includes(account.name)) return;
    await page.getByTestId('nav-account').click();
    await page.getByTestId('logout').click();
    await expect(login).toBeVisible();
  }
  await submitLogin(page, account.username, account.password);
  await expect(header).toContainText(account.name);
}

/** Fills the login form and presses Sign in (the answer is the caller's to check). */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  const login = page.getByTestId('login-form');
  await login.getByLabel('Username').fill(username);
  await login.getByLabel('Password').fill(password);
  await login.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * On the Account screen, adds a Flow profile `name` for `flowUrl` (a Flow server's API, such as
 * another Laneway's `/flow/api`) and switches to it: its login form comes next.
 */
export async function addFlowProfile(page: Page, name: string, flowUrl: string): Promise<void> {
  await page.getByTestId('nav-account').click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Service address').fill(flowUrl);
  await page.getByTestId('profile-flow').check();
  await page.getByRole('button', { name: 'Add and switch' }).click();
}

/**
 * Signs in to this computer's service, adds the Flow profile `name` for `flowUrl` and signs in
 * to it as `account`. A spec that does this ends with backToThisComputer(page, name).
 */
export async function signInToFlow(
  page: Page,
  app: LanewayApp,
  flowUrl: string,
  account: Account,
  name = 'Flow lab',
): Promise<void> {
  await signIn(page, app);
  await addFlowProfile(page, name, flowUrl);
  await submitLogin(page, account.username, account.password);
  await expect(page.getByTestId('header-user')).toContainText(account.name);
}

/** Opens a screen from the navigation as a person does, unfolding the menu first where the window is narrow. */
export async function openScreen(page: Page, screen: string): Promise<void> {
  const link = page.getByTestId(`nav-${screen}`);
  if (!(await link.isVisible())) await page.getByTestId('menu-toggle').click();
  await link.click();
}

/**
 * Switches the shared app back to this computer's service and removes the profile `name`: the
 * worker's app outlives the test, and the next spec must not find it pointed at a server that
 * stopped with this spec's file.
 */
export async function backToThisComputer(page: Page, name: string): Promise<void> {
  await page.getByTestId('nav-account').click();
  await page.getByRole('button', { name: 'Switch to This computer' }).click();
  await expect(page.getByTestId('nav-groups')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: `Remove ${name}` }).click();
  await expect(page.getByTestId('profiles')).not.toContainText(name);
}
