/**
 * A Flow profile in the app (issue 23 item 4, docs/flow-client.md): Account > Services adds a
 * Flow server (another Laneway's `/flow/api`, which the real flowbio client verifies), the
 * sign-in goes through Flow's wire, the account shows who is signed in there, the navigation
 * keeps the screens that work through the desktop core (watched folders read the Flow
 * server's organisms, sample types and pipelines through it), and a Laneway-only screen says
 * why it is not available instead of failing. The other screens: flow-screens.spec.ts.
 */
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { SECOND } from './service-api';
import { addFlowProfile, backToThisComputer, signIn, submitLogin } from './ui-session';
import { remoteServiceForFile } from './remote-service';

const remote = remoteServiceForFile();

test('a Flow server as a profile: sign in over Flow, the core screens stay, Laneway-only ones explain', async ({
  page,
  laneway,
}) => {
  await signIn(page, laneway);
  const flowUrl = `${remote.url}/flow/api`;
  await addFlowProfile(page, 'Flow lab', flowUrl);

  const login = page.getByTestId('login-form');
  await expect(login).toBeVisible();
  await expect(login).toContainText('Flow lab');
  await submitLogin(page, SECOND.username, 'not-the-password');
  // Flow answers bad credentials with a 400; the core reads it as INVALID_CREDENTIALS.
  await expect(page.getByTestId('error-notice')).toHaveAttribute('data-code', 'INVALID_CREDENTIALS');
  await submitLogin(page, SECOND.username, SECOND.password);
  await expect(page.getByTestId('header-user')).toContainText(SECOND.name);

  await page.getByTestId('nav-account').click();
  await expect(page.getByTestId('me-username')).toContainText(`(${SECOND.username})`);
  await expect(page.getByTestId('flow-account-note')).toBeVisible();
  await expect(page.getByTestId('profiles')).toContainText('Flow server');
  // The screens that go through the desktop core; Laneway-only ones are not listed.
  await expect(page.getByTestId('nav-uploads')).toBeVisible();
  await expect(page.getByTestId('nav-watchers')).toBeVisible();
  await expect(page.getByTestId('nav-groups')).toHaveCount(0);
  await expect(page.getByTestId('nav-notifications')).toHaveCount(0);
  // Lanes, samples, projects, pipelines and executions go through the core too (flow-screens.spec.ts).
  await expect(page.getByTestId('nav-annotation')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('flow-profile-account'), fullPage: true });

  // Watched folders read the Flow server's vocabularies and catalogue through the core.
  await page.getByTestId('nav-watchers').click();
  await page.getByLabel('Organism (every sample)').selectOption('Homo sapiens');
  await page.getByLabel('Category (every sample)').selectOption('Genomic DNA');
  await page.getByLabel('Launch on each registered run').selectOption('FASTQ Quality Control');
  await expect(page.getByTestId('watcher-missing-metadata')).toHaveCount(0);
  // The version's parameters come through the core too (Flow's schema as Laneway's parameters).
  await expect(page.getByText('Loading the parameters of FASTQ Quality Control')).toHaveCount(0);
  await expect(page.getByTestId('error-notice')).toHaveCount(0);
  await page.screenshot({ path: screenshotPath('flow-profile-watchers'), fullPage: true });

  // An address of a Laneway-only screen explains instead of failing.
  await page.goto(`${laneway.url.split('#')[0]}#/groups`);
  await expect(page.getByTestId('flow-unavailable')).toContainText('Group management is a Laneway feature');

  // Back to this computer's service, without restarting.
  await backToThisComputer(page, 'Flow lab');
});
