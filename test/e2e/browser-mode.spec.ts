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
