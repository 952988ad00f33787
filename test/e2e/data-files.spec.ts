import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, TECH, technician, uploadFile } from './service-api';
import { signIn } from './ui-session';

test('samples & data: files without a sample are listed by type, downloaded and deleted', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'f');
  const fasta = await uploadFile(laneway.serviceUrl, token, `${tag}-genome.fa`, Buffer.from('>chr1\nACGTACGTAC\n'));
  const bed = await uploadFile(laneway.serviceUrl, token, `${tag}-targets.bed`, Buffer.from('chr1\t0\t5\tT1\n'));

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-samples').click();
  const panel = page.getByTestId('data-files');
  const table = panel.getByTestId('data-files-table');
  await expect(table.getByRole('row', { name: new RegExp(`${tag}-genome\\.fa #${fasta} fasta`) })).toHaveCount(1);
  await expect(table.getByRole('row', { name: new RegExp(`${tag}-targets\\.bed #${bed} bed`) })).toHaveCount(1);

  // By type: the BED only.
  await panel.getByLabel('Type').selectOption('bed');
  await expect(table).toContainText(`${tag}-targets.bed`);
  await expect(table).not.toContainText(`${tag}-genome.fa`);
  await panel.getByLabel('Type').selectOption('');

  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: `Download ${tag}-genome.fa` }).click();
  expect((await download).suggestedFilename()).toBe(`${tag}-genome.fa`);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('data-files'), fullPage: true });

  // Deleted after a confirmation that says what stays; the service no longer has it.
  await panel.getByRole('button', { name: `Delete ${tag}-genome.fa` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${tag}-genome.fa?` });
  await expect(dialog).toContainText('Executions that used it keep their results');
  await dialog.getByRole('button', { name: 'Delete the file' }).click();
  await expect(table).not.toContainText(`${tag}-genome.fa`);
  await expect(table).toContainText(`${tag}-targets.bed`);
  await expect(
    call(laneway.serviceUrl, 'GET', `/api/data/${fasta}`, { token }).then(
      () => 'found',
      (err: Error) => err.message,
    ),
  ).resolves.toMatch(/404/);
});
