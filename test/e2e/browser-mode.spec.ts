import { expect, screenshotPath, test } from './fixtures';

test.describe('browser mode', () => {
  test('loads with the token and shows the running local service', async ({ page, laneway }) => {
    await page.goto(laneway.url);
    const status = page.getByTestId('service-status');
    await expect(status).toHaveAttribute('data-state', 'running');
    await expect(status).toContainText('Service running');
    await expect(status).toContainText(laneway.serviceUrl);
    await expect(page.getByTestId('app-version')).toContainText('browser mode');
    await page.screenshot({ path: screenshotPath('browser-mode-status'), fullPage: true });
  });

  test('loads without an error in the console (its Content-Security-Policy names only valid sources)', async ({
    page,
    laneway,
  }) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(laneway.url);
    await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running');
    await expect(
      page.getByTestId('header-user').or(page.getByTestId('login-form')).or(page.getByTestId('setup-form')),
    ).toBeVisible();
    // Chromium reports an invalid CSP source (an IPv6 literal such as [::1]) as the page loads.
    expect(errors).toEqual([]);
  });

  test('is refused without the token', async ({ page, laneway }) => {
    const res = await page.goto(`${laneway.origin}/`);
    expect(res?.status()).toBe(403);
    await expect(page.locator('body')).toContainText('Forbidden');
  });

  test('is refused with a wrong token', async ({ page, laneway }) => {
    const res = await page.goto(`${laneway.origin}/?token=${'x'.repeat(laneway.token.length)}`);
    expect(res?.status()).toBe(403);
  });
});
