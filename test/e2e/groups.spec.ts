import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { call, ensureFirstAccount, ensureUser, SECOND, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

test.describe.configure({ mode: 'serial' });

test('groups: create, invite, accept from notifications, promote, demote, remove, last-admin refusal', async ({
  page,
  laneway,
}) => {
  await ensureFirstAccount(laneway.serviceUrl);
  await ensureUser(laneway.serviceUrl, await tokenFor(laneway.serviceUrl), SECOND);
  const groupName = `Sequencing core ${Date.now() % 100000}`;

  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-groups').click();
  await page.getByLabel('New group name').fill(groupName);
  await page.getByLabel('Description').fill('Everyone at the MiSeq bench');
  await page.getByRole('button', { name: 'Create group' }).click();
  const detail = page.getByTestId('group-detail');
  await expect(detail).toContainText(groupName);
  await expect(detail.getByTestId(`member-${TECH.username}`)).toContainText('admin');

  await detail.getByLabel('Invite by e-mail').fill(SECOND.email);
  await detail.getByLabel('Their permission').selectOption('edit');
  await detail.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(detail.getByTestId(`member-${SECOND.username}`)).toContainText('invited');

  // The sole admin is not offered Leave group: the button says why and what to do instead.
  const leave = detail.getByRole('button', { name: 'Leave group' });
  await expect(leave).toBeDisabled();
  await expect(leave).toHaveAccessibleDescription(/only admin.*promote another member/);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('groups-last-admin'), fullPage: true });

  // The invitee accepts from the notifications screen.
  await signIn(page, laneway, SECOND);
  await page.getByTestId('nav-notifications').click();
  const list = page.getByTestId('notifications-list');
  await expect(list).toContainText(`invited you to the group ${groupName}`);
  // Said in the app's words: the e-mail's "Open Laneway to accept or decline" is not shown here.
  await expect(list).toContainText(
    `${TECH.name} (${TECH.username}) invited you to join the group "${groupName}" with edit permission.`,
  );
  await expect(list).not.toContainText('Open Laneway');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('notifications-invitation'), fullPage: true });
  // The button names the group as people know it, not its slug.
  await list.getByRole('button', { name: `Accept invitation to ${groupName}` }).click();
  await expect(list.getByText('Accepted')).toBeVisible();
  await page.getByTestId('nav-groups').click();
  await expect(page.getByTestId('groups-list')).toContainText(groupName);
  // Back on the notice later, it says where the invitation stands and offers nothing to answer.
  await page.getByTestId('nav-notifications').click();
  await expect(list).toContainText(`You are a member of ${groupName}.`);
  await expect(list.getByRole('button', { name: `Accept invitation to ${groupName}` })).toHaveCount(0);

  // Back as the admin: promote, demote, remove.
  await signIn(page, laneway, TECH);
  await page.getByTestId('nav-groups').click();
  await page.getByTestId('groups-list').getByRole('button', { name: groupName }).click();
  const row = page.getByTestId(`member-${SECOND.username}`);
  await expect(row).toContainText('member');
  await expect(row).toContainText('edit');
  await row.getByRole('button', { name: `Promote ${SECOND.username} to admin` }).click();
  await expect(row).toContainText('admin');
  await page.screenshot({ path: screenshotPath('groups-members'), fullPage: true });
  await row.getByRole('button', { name: `Demote ${SECOND.username}` }).click();
  await expect(row).toContainText('member');
  await row.getByRole('button', { name: `Remove ${SECOND.username}` }).click();
  await expect(page.getByTestId(`member-${SECOND.username}`)).toHaveCount(0);
  await expectAccessible(page);

  // Accepted from the Groups screen, the toast names the group as people know it, not its slug.
  const second = `Flow cell team ${Date.now() % 100000}`;
  const token = await tokenFor(laneway.serviceUrl);
  const g = await call<{ slug: string }>(laneway.serviceUrl, 'POST', '/api/groups/', { token, body: { name: second } });
  await call(laneway.serviceUrl, 'POST', `/api/groups/${g.slug}/invite/`, {
    token,
    body: { emails: [SECOND.email], permission: 'view' },
  });
  await signIn(page, laneway, SECOND);
  await page.getByTestId('nav-groups').click();
  await page
    .getByTestId('invitations')
    .getByRole('button', { name: `Accept ${second}` })
    .click();
  await expect(page.getByTestId('toasts')).toContainText(`You joined ${second}`);
  await expect(page.getByTestId('toasts')).not.toContainText(g.slug);
});
