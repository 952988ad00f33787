import { expectAccessible } from './axe';
import { expect, screenshotPath, startLaneway, test } from './fixtures';
import { servicePid } from './app-process';
import { openScreen, signIn } from './ui-session';

test.describe('app frame', () => {
  test('shows the header, the service status and passes axe', async ({ page, laneway }) => {
    await page.goto(laneway.url);
    await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running');
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('frame'), fullPage: true });
  });

  // Its own app: the shared one's service URL must stay valid for the other flows.
  test('shows a lost local service and recovers when it is restarted', async ({ page }) => {
    const laneway = await startLaneway();
    try {
      await page.goto(laneway.url);
      await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running');
      const pid = servicePid(laneway.cli.child.pid!);
      process.kill(pid, 'SIGKILL');
      const banner = page.getByTestId('connection-banner');
      await expect(banner).toBeVisible();
      await expect(banner).toContainText('local service is restarting');
      await page.screenshot({ path: screenshotPath('frame-connection-lost'), fullPage: true });
      await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
      await expect(banner).toHaveCount(0);
      expect(servicePid(laneway.cli.child.pid!)).not.toBe(pid);
    } finally {
      await laneway.stop();
    }
  });
});

test('the menu reaches the bottom of the window on a short screen (it stopped 7 px above it)', async ({
  page,
  laneway,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, laneway);
  await openScreen(page, 'runs');
  const nav = await page.locator('nav.nav').boundingBox();
  expect(nav).not.toBeNull();
  expect(Math.round(nav!.y + nav!.height)).toBe(800);
});
