import { expectAccessible } from './axe';
import { shootBoth } from './first-day';
import { expect, screenshotPath, test } from './fixtures';
import { call, createSample, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('samples and projects: search, filter, details with files, project from selection, share, download', async ({
  page,
  laneway,
}) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'd');
  const liver = await createSample(
    laneway.serviceUrl,
    token,
    `${tag}_liver`,
    { organism: 'Mus musculus', category: 'mRNA', tissue: 'liver' },
    1,
  );
  const brain = await createSample(
    laneway.serviceUrl,
    token,
    `${tag}_brain`,
    { organism: 'Mus musculus', category: 'mRNA', tissue: 'brain' },
    2,
  );
  await createSample(
    laneway.serviceUrl,
    token,
    `${tag}_yeast`,
    { organism: 'Saccharomyces cerevisiae', category: 'Genomic DNA' },
    3,
  );
  const group = await call<{ slug: string }>(laneway.serviceUrl, 'POST', '/api/groups/', {
    token,
    body: { name: `Mouse team ${tag}`, description: 'share target' },
  });

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-samples').click();
  const table = page.getByTestId('samples-table');
  await page.getByLabel('Search').fill(tag);
  await expect(table.getByRole('row')).toHaveCount(4); // header + 3
  await page.getByLabel('Organism').selectOption('Mus musculus');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).not.toContainText(`${tag}_yeast`);
  await page.getByLabel('Category').selectOption('Control');
  await expect(page.getByTestId('samples-empty')).toHaveText(
    'No samples match these filters. Clear them to see every sample.',
  );
  await page.getByLabel('Category').selectOption('');

  await table.getByRole('link', { name: `${tag}_liver` }).click();
  const detail = page.getByTestId('sample-detail');
  await expect(detail.getByTestId('sample-metadata')).toContainText('liver');
  await expect(detail).toContainText(`${tag}_liver_R1.fastq`);
  const download = page.waitForEvent('download');
  await detail.getByRole('button', { name: `Download ${tag}_liver_R1.fastq` }).click();
  expect((await download).suggestedFilename()).toBe(`${tag}_liver_R1.fastq`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('samples-detail'), fullPage: true });

  await table.getByLabel(`Select ${tag}_liver`).check();
  await table.getByLabel(`Select ${tag}_brain`).check();
  await page.getByLabel('New project name').fill(`Mouse atlas ${tag}`);
  await page.getByRole('button', { name: 'Create project from 2 selected' }).click();

  // Creating navigates to the projects screen.
  await page
    .getByTestId('projects-list')
    .getByRole('button', { name: `Mouse atlas ${tag}` })
    .click();
  const project = page.getByTestId('project-detail');
  await expect(project.getByTestId('project-samples')).toContainText(`${tag}_brain`);
  const share = project.getByTestId('share-panel');
  await share.getByLabel('Group').selectOption(group.slug);
  await share.getByLabel('Permission').selectOption('edit');
  // "With its reads and results" is on by default in the dialog, and says what goes along.
  await expect(share.getByTestId('share-with-data')).toBeChecked();
  await expect(share.getByTestId('share-what')).toContainText('its samples with their reads');
  await share.getByTestId('share-with-data').uncheck();
  await expect(share.getByTestId('share-what')).toContainText('sample names only');
  await share.getByTestId('share-with-data').check();
  await share.getByRole('button', { name: 'Share' }).click();
  // Groups are shown by name, as everywhere else (issue 16 item 12).
  await expect(share).toContainText(`Mouse team ${tag}: edit`);
  await expect(share.getByTestId('share-outcome')).toContainText(`Shared with Mouse team ${tag}, with 2 samples`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('projects-shared'), fullPage: true });
  await shootBoth(page, 'projects-shared-with-data');
  // The samples' reads went along, at view.
  const readShare = await call<{ shares: Array<{ group: string; permission: string }> }>(
    laneway.serviceUrl,
    'GET',
    `/api/samples/${liver.id}/permissions/`,
    { token },
  );
  expect(readShare.shares).toEqual([expect.objectContaining({ group: group.slug, permission: 'view' })]);

  const projects = await call<{ items: Array<{ name: string; sample_ids?: number[] }> }>(
    laneway.serviceUrl,
    'GET',
    '/api/projects/?per_page=100',
    { token },
  );
  const created = projects.items.find((p) => p.name === `Mouse atlas ${tag}`);
  expect(created?.sample_ids?.sort()).toEqual([liver.id, brain.id].sort());
});
