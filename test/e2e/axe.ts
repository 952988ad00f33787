/**
 * The accessibility check every flow runs: axe-core (from npm) injected into the page, with no
 * serious or critical violation allowed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe on the page and fails with a readable list of serious/critical violations. */
export async function expectAccessible(page: Page): Promise<void> {
  // Evaluated over the DevTools protocol rather than added as a <script> tag: the app's real
  // CSP (script-src 'self') stays on in the tests and would refuse an inline script.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations;
  });
  const serious = (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(report, 'axe serious/critical violations').toEqual([]);
}
