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
  await login.getByLabel('Username').fill(account.username);
  await login.getByLabel('Password').fill(account.password);
  await login.getByRole('button', { name: 'Sign in' }).click();
  await expect(header).toContainText(account.name);
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
