/**
 * The service's own launch refusals shown where they belong. The form's live checks normally
 * stop a bad launch first, so the fault is injected at the network boundary: a route rewrites
 * the run request's body on its way out, the real service refuses it with its real error body,
 * and the form must place the message on the named field and move focus there.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, screenshotPath, startLaneway, test, type LanewayApp } from './fixtures';
import { LOG_FLOOD_DIR } from './fixtures/log-flood/expected';
import { ensureFirstAccount } from './service-api';
import { signIn } from './ui-session';

let app: LanewayApp;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  app = await startLaneway({ env: { LANEWAY_PIPELINES_DIR: LOG_FLOOD_DIR } });
  await ensureFirstAccount(app.serviceUrl);
});
test.afterAll(async () => app?.stop());

/** Rewrites the parameters of the next run request; returns the service's answer. */
async function rewriteRun(page: Page, change: (parameters: Record<string, unknown>) => void) {
  const answered = page.waitForResponse((r) => /\/api\/pipelines\/versions\/\d+\/run$/.test(r.url()));
  await page.route(
    /\/api\/pipelines\/versions\/\d+\/run$/,
    async (route) => {
      const body = route.request().postDataJSON() as { parameters: Record<string, unknown> };
      change(body.parameters);
      await route.continue({ postData: JSON.stringify(body) });
    },
    { times: 1 },
  );
  return answered;
}

async function openForm(page: Page) {
  await signIn(page, app);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('button', { name: 'Log Flood' }).click();
  const form = page.getByTestId('launch-form');
  // `lines` is required and has no default: the service refuses a run without it.
  await form.locator('#param-lines').fill('10');
  return form;
}

test('pipelines: MISSING_PARAMETERS from the service sits on the field and takes focus', async ({ page }) => {
  const form = await openForm(page);
  const answer = rewriteRun(page, (p) => delete p.lines);
  await form.getByTestId('launch').click();
  const res = await answer;
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ code: 'MISSING_PARAMETERS', missing_params: ['lines'] });
  await expect(form.getByTestId('param-lines')).toContainText('is required');
  await expect(form.locator('#param-lines')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.locator('#param-lines')).toBeFocused();
  await expect(form.getByTestId('error-notice')).toHaveAttribute('data-code', 'MISSING_PARAMETERS');
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('launch-service-missing'), fullPage: true });
});

test('pipelines: INVALID_PARAMETERS from the service sits on the field and takes focus', async ({ page }) => {
  const form = await openForm(page);
  const answer = rewriteRun(page, (p) => (p.lines = 5_000_000));
  await form.getByTestId('launch').click();
  const res = await answer;
  const body = (await res.json()) as { code: string; fields: Record<string, string> };
  expect(body.code).toBe('INVALID_PARAMETERS');
  const message = body.fields.lines ?? '';
  expect(message).toMatch(/at most/);
  await expect(form.getByTestId('param-lines')).toContainText(message);
  await expect(form.locator('#param-lines')).toBeFocused();
  await expect(form.getByTestId('error-notice')).toHaveAttribute('data-code', 'INVALID_PARAMETERS');
  await page.screenshot({ path: screenshotPath('launch-service-invalid'), fullPage: true });

  // Editing the field clears the service's message; a clean launch then goes through.
  await form.locator('#param-lines').fill('12');
  await expect(form.getByTestId('param-lines')).not.toContainText(message);
  await form.getByLabel('Execution name').fill('Flood ten');
  await form.getByTestId('launch').click();
  await expect(page.getByTestId('execution-dashboard')).toContainText('Flood ten');
  await expect(page.getByTestId('execution-status')).toHaveText('completed', { timeout: 30_000 });
});
