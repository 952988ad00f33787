/**
 * The Projects screen opens a project's detail below the list: with a page of projects, the
 * detail must come into view when a project is chosen (it opened below the fold, so the click
 * seemed to do nothing), with the chosen project marked in the list.
 */
import { uniqueSeed } from './first-day';
import { expect, test } from './fixtures';
import { call, createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { openScreen, signIn } from './ui-session';

test('choosing a project at the bottom of a long list brings its detail into view', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'pj');
  const sample = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, uniqueSeed());
  // Made first, so the newest-first list shows it last among the 25 on the first page.
  for (let i = 0; i < 25; i++)
    await call(laneway.serviceUrl, 'POST', '/api/projects/', {
      token,
      body: { name: `Batch ${tag} ${String(i).padStart(2, '0')}`, sample_ids: [sample.id] },
    });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, laneway, TECH);
  await openScreen(page, 'projects');
  const list = page.getByTestId('projects-list');
  const first = list.getByRole('button', { name: `Batch ${tag} 00` });
  await first.scrollIntoViewIfNeeded();
  await first.click();
  const detail = page.getByTestId('project-detail');
  await expect(detail.getByRole('heading', { name: `Batch ${tag} 00` })).toBeInViewport();
  await expect(detail.getByRole('heading', { name: `Batch ${tag} 00` })).toBeFocused();
  await expect(first).toHaveAttribute('aria-current', 'true');
  // Another one from the top of the list: its detail replaces the first and comes into view too.
  await page.evaluate(() => window.scrollTo(0, 0));
  const top = list.getByRole('button', { name: `Batch ${tag} 24` });
  await top.click();
  await expect(detail.getByRole('heading', { name: `Batch ${tag} 24` })).toBeInViewport();
  await expect(first).not.toHaveAttribute('aria-current', 'true');
});
