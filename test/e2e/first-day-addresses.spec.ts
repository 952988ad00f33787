/**
 * Issue 16 item 9 (and the token of item 12): every screen has an address; reload and Back
 * work; deep links open a sample and an execution; a skip link leads past the navigation;
 * after a change of screen focus is on the new content; the launch token leaves the address bar.
 */
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { runPipeline, shootBoth, uniqueSeed, waitForExecution } from './first-day';
import { createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('item 9: addresses, Back and reload, deep links, skip link and focus after navigation', async ({
  page,
  laneway,
}) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'a');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, uniqueSeed());
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `QC ${tag}`,
    samples: [sample.id],
  });
  await waitForExecution(laneway.serviceUrl, token, qc);

  await signIn(page, laneway, TECH);
  // Browser mode: the token went to a cookie and is gone from the address bar.
  expect(page.url()).not.toContain('token=');
  // The launch link names no screen: the home screen's address is put in the bar (reload and
  // bookmarks keep it) without a history entry of its own.
  await expect(page).toHaveURL(/#\/samples$/);

  // Keyboard alone: the first Tab reaches the skip link, which leads to the content.
  // (A fresh document: going to a hash of the same page would keep the current focus.)
  await page.goto(`${laneway.origin}/#/samples`);
  await page.reload();
  await expect(page.getByTestId('header-user')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  // A screen per address; focus lands on the new screen's heading.
  await page.getByTestId('nav-uploads').click();
  await expect(page).toHaveURL(/#\/uploads$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Uploads' })).toBeFocused();
  await page.getByTestId('nav-executions').click();
  await expect(page).toHaveURL(/#\/executions$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Executions' })).toBeFocused();

  // Reload keeps the screen; Back returns to the one before.
  await page.reload();
  await expect(page.getByTestId('nav-executions')).toHaveAttribute('aria-current', 'page');
  await page.goBack();
  await expect(page).toHaveURL(/#\/uploads$/);
  await expect(page.getByTestId('nav-uploads')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Uploads' })).toBeVisible();

  // Deep links: one sample, one execution.
  await page.goto(`${laneway.origin}/#/samples/${sample.id}`);
  await expect(page.getByTestId('sample-detail')).toContainText(`${tag}_s`);
  await page.goto(`${laneway.origin}/#/executions/${qc}`);
  await expect(page.getByTestId('execution-dashboard')).toContainText(`QC ${tag}`);
  // Opening a sample from the list gives it its address; Back closes it again.
  await page.goto(`${laneway.origin}/#/samples`);
  await page.getByRole('search').getByLabel('Search').fill(tag);
  await page.getByRole('link', { name: `${tag}_s` }).click();
  await expect(page).toHaveURL(new RegExp(`#/samples/${sample.id}$`));
  await expect(page.getByTestId('sample-detail')).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId('sample-detail')).toHaveCount(0);

  // Keyboard alone through the navigation: Tab to a link, Enter opens it.
  await page.getByTestId('nav-pipelines').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/pipelines$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Pipelines' })).toBeFocused();
  // Visible focus: the focused heading or link draws an outline.
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe('none');

  await page.goto(`${laneway.origin}/#/samples/${sample.id}`);
  await expect(page.getByTestId('sample-detail')).toBeVisible();
  await expectAccessible(page);
  await shootBoth(page, 'first-day-sample-address');
});
