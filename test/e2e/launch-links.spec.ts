/**
 * Issue 20 item 2: a new launch link pasted into the tab of the previous launch opens the app
 * (it showed a blank page: React error #185, maximum update depth). Two launches of the same
 * home folder, their links opened one after the other in one tab.
 */
import { expect, startLaneway, test } from './fixtures';
import { ensureFirstAccount, TECH } from './service-api';
import { openScreen, signIn } from './ui-session';

test('two launch links opened in sequence in one tab both open the app', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const first = await startLaneway({ keepHome: true });
  let second: Awaited<ReturnType<typeof startLaneway>> | null = null;
  try {
    await signIn(page, first);
    await openScreen(page, 'samples');
    await expect(page.getByRole('heading', { name: 'Samples & data' })).toBeVisible();
    await first.stop();
    second = await startLaneway({ home: first.home });
    await ensureFirstAccount(second.serviceUrl, TECH);
    await page.goto(second.url);
    await expect(page.getByTestId('header-user')).toContainText(TECH.name);
    await expect(page.getByRole('heading', { name: 'Samples & data' })).toBeVisible();
    expect(errors.filter((e) => /Minified React error|Maximum update depth/.test(e))).toEqual([]);
  } finally {
    await second?.stop();
  }
});
