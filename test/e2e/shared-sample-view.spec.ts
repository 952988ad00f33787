/**
 * Issue 20 item 3, the colleague's side: a sample shared without its reads says so (and whom to
 * ask) on her page; shared "with its reads and results", her page lists the reads to download.
 */
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { shootBoth, uniqueSeed } from './first-day';
import { call, createSample, ensureFirstAccount, ensureUser, SECOND, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

test("a colleague's view of a shared sample says whether its reads are shared", async ({ page, laneway }) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const token = await tokenFor(laneway.serviceUrl, TECH);
  await ensureUser(laneway.serviceUrl, token, SECOND);
  const tag = `v${Date.now() % 100000}`;
  const sample = await createSample(
    laneway.serviceUrl,
    token,
    `${tag}_liver`,
    { organism: 'Homo sapiens', category: 'Total RNA' },
    uniqueSeed(),
  );
  const group = await call<{ slug: string }>(laneway.serviceUrl, 'POST', '/api/groups/', {
    token,
    body: { name: `Readers ${tag}` },
  });
  await call(laneway.serviceUrl, 'POST', `/api/groups/${group.slug}/invite/`, {
    token,
    body: { emails: [SECOND.email], permission: 'view' },
  });
  const second = await tokenFor(laneway.serviceUrl, SECOND);
  await call(laneway.serviceUrl, 'POST', `/api/groups/${group.slug}/accept/`, { token: second });
  // The API's default: the sample only.
  await call(laneway.serviceUrl, 'POST', `/api/samples/${sample.id}/share/`, {
    token,
    body: { group: group.slug, permission: 'view' },
  });

  await signIn(page, laneway, SECOND);
  await page.goto(`${laneway.origin}/#/samples/${sample.id}`);
  const detail = page.getByTestId('sample-detail');
  await expect(detail.getByTestId('reads-not-shared')).toContainText(
    `Its read files are not shared with you: you see the sample's name and metadata only. Ask ${TECH.username}`,
  );
  await expectAccessible(page);
  await shootBoth(page, 'shared-sample-without-reads');

  await call(laneway.serviceUrl, 'POST', `/api/samples/${sample.id}/share/`, {
    token,
    body: { group: group.slug, permission: 'view', with_data: true },
  });
  await page.goto(`${laneway.origin}/#/samples`);
  await page.goto(`${laneway.origin}/#/samples/${sample.id}`);
  await expect(detail.getByRole('button', { name: `Download ${tag}_liver_R1.fastq` })).toBeVisible();
  await expect(detail.getByTestId('reads-not-shared')).toHaveCount(0);
});
