/**
 * The Groups screen opens a group's detail below the list: with many groups, the detail must
 * come into view when a group is chosen (it opened below the fold, so the click seemed to do
 * nothing), with the chosen group marked in the list. As on Projects (projects.spec.ts).
 */
import { expect, test } from './fixtures';
import { call, TECH, technician } from './service-api';
import { openScreen, signIn } from './ui-session';

test('choosing a group at the bottom of a long list brings its detail into view', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'gd');
  for (let i = 0; i < 25; i++)
    await call(laneway.serviceUrl, 'POST', '/api/groups/', {
      token,
      body: { name: `Team ${tag} ${String(i).padStart(2, '0')}`, description: '' },
    });
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, laneway, TECH);
  await openScreen(page, 'groups');
  const list = page.getByTestId('groups-list');
  const last = list.getByRole('button', { name: `Team ${tag} 24` });
  await last.scrollIntoViewIfNeeded();
  await last.click();
  const detail = page.getByTestId('group-detail');
  await expect(detail.getByRole('heading', { name: `Team ${tag} 24` })).toBeInViewport();
  await expect(detail.getByRole('heading', { name: `Team ${tag} 24` })).toBeFocused();
  await expect(last).toHaveAttribute('aria-current', 'true');
});
