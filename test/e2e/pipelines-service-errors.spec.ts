/**
 * The service's own launch refusals shown where they belong. The form's live checks normally
 * stop a bad launch first, so the fault is injected at the network boundary: a route rewrites
 * the run request's body on its way out, the real service refuses it with its real error body,
 * and the form must place the message on the named field and move focus there.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { expect, screenshotPath, test } from './fixtures';
import { appForFile } from './own-app';
import { LOG_FLOOD_DIR } from './fixtures/log-flood/expected';
import { createSample, TECH, tokenFor } from './service-api';
import { signIn } from './ui-session';

const app = appForFile({ LANEWAY_PIPELINES_DIR: LOG_FLOOD_DIR });
test.describe.configure({ mode: 'serial' });

interface RunBody {
  parameters: Record<string, unknown>;
  samples?: number[];
}

/** Rewrites the body of the next run request; returns the service's answer. */
async function rewriteRun(page: Page, change: (body: RunBody) => void) {
  const answered = page.waitForResponse((r) => /\/api\/pipelines\/versions\/\d+\/run$/.test(r.url()));
  await page.route(
    /\/api\/pipelines\/versions\/\d+\/run$/,
    async (route) => {
      const body = route.request().postDataJSON() as RunBody;
      change(body);
      await route.continue({ postData: JSON.stringify(body) });
    },
    { times: 1 },
  );
  return answered;
}

async function openForm(page: Page) {
  await signIn(page, app);
  await page.getByTestId('nav-pipelines').click();
  await page.getByRole('link', { name: 'Log Flood' }).click();
  const form = page.getByTestId('launch-form');
  // `lines` is required and has no default: the service refuses a run without it.
  await form.locator('#param-lines').fill('10');
  return form;
}

test('pipelines: MISSING_PARAMETERS from the service sits on the field and takes focus', async ({ page }) => {
  const form = await openForm(page);
  const answer = rewriteRun(page, (b) => delete b.parameters.lines);
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
  const answer = rewriteRun(page, (b) => (b.parameters.lines = 5_000_000));
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

test('pipelines: INVALID_SAMPLES from the service sits on the sample it names and takes focus', async ({ page }) => {
  const token = await tokenFor(app.serviceUrl, TECH);
  const meta = { category: 'Genomic DNA' };
  const human = await createSample(app.serviceUrl, token, 'svc_human', { ...meta, organism: 'Homo sapiens' }, 11);
  const mouse = await createSample(app.serviceUrl, token, 'svc_mouse', { ...meta, organism: 'Mus musculus' }, 12);
  const form = await openForm(page);
  const picker = form.getByTestId('sample-picker');
  await picker.getByLabel('Find samples').fill('svc_');
  await picker.getByLabel('svc_human').check();
  // On the wire the chosen sample is swapped for one this version does not take.
  const answer = rewriteRun(page, (b) => (b.samples = [mouse.id]));
  await form.getByTestId('launch').click();
  const body = (await (await answer).json()) as {
    code: string;
    invalid_samples: Array<{ sample_id: number; reason: string }>;
  };
  expect(body.code).toBe('INVALID_SAMPLES');
  const reason = body.invalid_samples.find((x) => x.sample_id === mouse.id)?.reason ?? '';
  expect(reason).toMatch(/Mus musculus/);
  await expect(form.getByTestId(`pick-${mouse.id}`)).toContainText(reason);
  await expect(picker.getByLabel('svc_mouse')).toHaveAttribute('aria-invalid', 'true');
  await expect(picker.getByLabel('svc_mouse')).toBeFocused();
  await expect(form.getByTestId('service-sample-reasons')).toContainText(`svc_mouse: ${reason}`);
  await expect(form.getByTestId(`pick-${human.id}`)).not.toHaveClass(/row-invalid/);
  await expectAccessible(page);
  await page.screenshot({ path: screenshotPath('launch-service-invalid-samples'), fullPage: true });
});
