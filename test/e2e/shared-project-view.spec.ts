/**
 * Issue 20 item 3, a project on the colleague's side: she sees the sample names its owner sees
 * (not "Sample 1 … Sample 4"), and the page says what came with it: names only (and whom to
 * ask), or the samples' reads and results.
 */
import { expectAccessible } from './axe';
import { expect, test } from './fixtures';
import { shootBoth, uniqueSeed } from './first-day';
import { call, createSample, ensureFirstAccount, ensureUser, SECOND, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

test("a colleague's view of a shared project names its samples and says what is shared", async ({ page, laneway }) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const token = await tokenFor(laneway.serviceUrl, TECH);
  await ensureUser(laneway.serviceUrl, token, SECOND);
  const tag = `p${Date.now() % 100000}`;
  const meta = { organism: 'Homo sapiens', category: 'Total RNA' };
  const a = await createSample(laneway.serviceUrl, token, `${tag}_kidney`, meta, uniqueSeed());
  const b = await createSample(laneway.serviceUrl, token, `${tag}_heart`, meta, uniqueSeed());
  const project = await call<{ id: number }>(laneway.serviceUrl, 'POST', '/api/projects/', {
    token,
    body: { name: `Organs ${tag}`, sample_ids: [a.id, b.id] },
  });
  const group = await call<{ slug: string }>(laneway.serviceUrl, 'POST', '/api/groups/', {
    token,
    body: { name: `Organ readers ${tag}` },
  });
  await call(laneway.serviceUrl, 'POST', `/api/groups/${group.slug}/invite/`, {
    token,
    body: { emails: [SECOND.email], permission: 'view' },
  });
  const second = await tokenFor(laneway.serviceUrl, SECOND);
  await call(laneway.serviceUrl, 'POST', `/api/groups/${group.slug}/accept/`, { token: second });
  // The API's default: the project alone, names only.
  await call(laneway.serviceUrl, 'POST', `/api/projects/${project.id}/share/`, {
    token,
    body: { group: group.slug, permission: 'view' },
  });

  await signIn(page, laneway, SECOND);
  await page.goto(`${laneway.origin}/#/projects/${project.id}`);
  const detail = page.getByTestId('project-detail');
  await expect(detail.getByTestId('project-samples')).toContainText(`${tag}_kidney`);
  await expect(detail.getByTestId('project-samples')).toContainText(`${tag}_heart`);
  await expect(detail.getByTestId('project-samples')).not.toContainText('Sample ');
  await expect(detail.getByTestId('project-shared-note')).toContainText(
    `Shared with you by ${TECH.username} (view only), names only`,
  );
  await expect(detail.getByTestId('project-shared-note')).toContainText(`Ask ${TECH.username} to share it`);
  await expectAccessible(page);
  await shootBoth(page, 'shared-project-names-only');

  await call(laneway.serviceUrl, 'POST', `/api/projects/${project.id}/share/`, {
    token,
    body: { group: group.slug, permission: 'view', with_data: true },
  });
  await page.goto(`${laneway.origin}/#/projects`);
  await page.goto(`${laneway.origin}/#/projects/${project.id}`);
  await expect(detail.getByTestId('project-shared-note')).toContainText(
    "with its samples' reads and results: you see what its owner sees",
  );
  // The owner's own page says nothing of the kind.
  await signIn(page, laneway, TECH);
  await page.goto(`${laneway.origin}/#/projects/${project.id}`);
  await expect(detail.getByTestId('project-samples')).toContainText(`${tag}_kidney`);
  await expect(detail.getByTestId('project-shared-note')).toHaveCount(0);
});
