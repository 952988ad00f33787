import { execFileSync } from 'node:child_process';
import { expectAccessible } from './axe';
import { expect, screenshotPath, startLaneway, test } from './fixtures';

/** The embedded service's process: the direct child of the `laneway start` process. */
function servicePid(cliPid: number): number {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(cliPid)], { encoding: 'utf8' });
  const pids = out
    .split('\n')
    // From source `service/entry.ts`; from the built bundle `out/cli/<hash>/entry.js`.
    .filter((l) => /(service\/entry|\/entry\.js)(\s|$)/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
  if (pids.length !== 1) throw new Error(`expected one service child of ${cliPid}, found ${pids.join(',')}`);
  return pids[0]!;
}

test.describe('app frame', () => {
  test('shows the header, the service status and passes axe', async ({ page, laneway }) => {
    await page.goto(laneway.url);
    await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running');
    await expect(page.getByTestId('connection-banner')).toHaveCount(0);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('frame'), fullPage: true });
  });

  // Its own app: the shared one's service URL must stay valid for the other flows.
  test('shows a lost local service and recovers when it is restarted', async ({ page }) => {
    const laneway = await startLaneway();
    try {
      await page.goto(laneway.url);
      await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running');
      const pid = servicePid(laneway.cli.child.pid!);
      process.kill(pid, 'SIGKILL');
      const banner = page.getByTestId('connection-banner');
      await expect(banner).toBeVisible();
      await expect(banner).toContainText('local service is restarting');
      await page.screenshot({ path: screenshotPath('frame-connection-lost'), fullPage: true });
      await expect(page.getByTestId('service-status')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
      await expect(banner).toHaveCount(0);
      expect(servicePid(laneway.cli.child.pid!)).not.toBe(pid);
    } finally {
      await laneway.stop();
    }
  });
});
