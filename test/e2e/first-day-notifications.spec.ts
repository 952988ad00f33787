/**
 * Issue 16 item 10: every event notifies. A quick QC run (queued and finished between two looks),
 * a cancelled run and a demultiplexed lane appear under Notifications while the technician is
 * elsewhere in the app.
 */
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { postTinyLane, runPipeline, shootBoth, uniqueSeed, waitForExecution } from './first-day';
import { call, createSample, HUMAN_DNA, TECH, technician } from './service-api';
import { signIn } from './ui-session';

test('item 10: quick QC runs, cancelled runs and lanes notify', async ({ page, laneway }) => {
  const { token, tag } = await technician(laneway.serviceUrl, 'o');
  // The notifier's first look at the lanes (its own query) comes before anything happens: a
  // lane it sees first is known, not news.
  const firstLook = page.waitForResponse((r) => /\/api\/lanes\/?\?per_page=50$/.test(r.url()) && r.ok());
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-samples').click();
  await firstLook;

  const small = await createSample(laneway.serviceUrl, token, `${tag}_s`, HUMAN_DNA, uniqueSeed());
  const qc = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `QC ${tag}`,
    samples: [small.id],
  });
  await waitForExecution(laneway.serviceUrl, token, qc);

  const big = await createSample(laneway.serviceUrl, token, `${tag}_big`, HUMAN_DNA, uniqueSeed(), 40_000);
  const doomed = await runPipeline(laneway.serviceUrl, token, 'FASTQ Quality Control', {
    name: `Doomed ${tag}`,
    samples: [big.id],
    priority: 'low',
  });
  await call(laneway.serviceUrl, 'POST', `/api/executions/${doomed}/cancel/`, { token });

  // A lane straight to the service, as the lane editor sends it.
  await postTinyLane(laneway.serviceUrl, token, tag);

  await page.getByTestId('nav-notifications').click();
  const list = page.getByTestId('activity-list');
  const service = page.getByTestId('notifications-list');
  await expect(service).toContainText(`QC ${tag}`, { timeout: 30_000 });
  await expect(service.locator('li', { hasText: `Doomed ${tag}` })).toContainText(/cancel/i, { timeout: 30_000 });
  await expect(list).toContainText(`Lane Lane ${tag} demultiplexed`, { timeout: 60_000 });
  // Issue 20 item 8: each notice once (the service's, not again "on this computer"), and no
  // ISO time in its sentences.
  await expect(
    page.locator('section[aria-labelledby="notifications-title"]').getByText(`Execution QC ${tag} completed`),
  ).toHaveCount(1);
  await expect(list).not.toContainText(`QC ${tag}`);
  await expect(service.locator('li', { hasText: `QC ${tag}` }).locator('.notification-body')).not.toContainText(
    /\d{4}-\d\d-\d\dT\d\d:/,
  );
  await expectAccessible(page);
  await shootBoth(page, 'first-day-notifications');
  // The service's notice of an execution leads to it.
  await page
    .getByTestId('notifications-list')
    .getByRole('link', { name: `Open execution ${qc}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`#/executions/${qc}$`));
  await expect(page.getByTestId('execution-dashboard')).toContainText(`QC ${tag}`);
});
