/**
 * Issue 20 item 1: the screens follow the local service across a crash. The embedded service
 * is killed with SIGKILL while a screen is open; the supervisor restarts it, and the screen
 * carries on without a reload, whether the service came back on its old port (the usual case)
 * or, its port taken meanwhile, on another.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { expectAccessible } from './axe';
import { shootBoth } from './first-day';
import { expect, startLaneway, test } from './fixtures';
import { createSample, ensureFirstAccount, TECH, tokenFor } from './service-api';
import { openScreen, signIn } from './ui-session';
import { servicePid } from './app-process';

type LogLine = { event: string; url?: string; previous_stop?: { kind: string } };

/** The app's service.log as parsed lines. */
function serviceLog(home: string): LogLine[] {
  return readFileSync(join(home, 'service', 'service.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);
}

/** Binds `port` on loopback as soon as the killed service has released it. */
function occupy(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const attempt = () => {
      const server = createServer();
      server.once('error', () => setImmediate(attempt));
      server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
    };
    attempt();
  });
}

for (const portTaken of [false, true]) {
  test(`a screen recovers after the local service is killed (${portTaken ? 'a new port' : 'the same port'})`, async ({
    page,
  }) => {
    // Its own app, and its service started twice: two service start-ups on a shared machine.
    test.setTimeout(120_000);
    const app = await startLaneway();
    let blocker: Server | null = null;
    try {
      await ensureFirstAccount(app.serviceUrl);
      const token = await tokenFor(app.serviceUrl, TECH);
      await createSample(
        app.serviceUrl,
        token,
        'before_crash',
        { organism: 'Homo sapiens', category: 'Genomic DNA' },
        7,
      );
      await signIn(page, app);
      await openScreen(page, 'samples');
      await expect(page.getByRole('link', { name: 'before_crash' })).toBeVisible();
      // A reload would lose this: the same document must live through the restart.
      await page.evaluate(() => ((window as unknown as { survivor: number }).survivor = 20));

      const oldPort = Number(new URL(app.serviceUrl).port);
      process.kill(servicePid(app.cli.child.pid!), 'SIGKILL');
      if (portTaken) blocker = await occupy(oldPort);
      const banner = page.getByTestId('connection-banner');
      await expect(banner).toContainText('local service is restarting');
      await expect(banner).not.toContainText(/offline|network/i);

      // The badge may still show the old "running" before it hears of the crash: wait for the
      // supervisor's own word that it restarted the service, then for the badge to name it.
      const restarts = () => serviceLog(app.home).filter((l) => l.event === 'supervisor.restarted');
      await expect.poll(() => restarts().length, { timeout: 30_000 }).toBe(1);
      const newUrl = restarts()[0]!.url!;
      const status = page.getByTestId('service-status');
      await expect(status).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
      await expect(status).toContainText(`local ${newUrl}`);
      expect(Number(new URL(newUrl).port) === oldPort).toBe(!portTaken);

      // Made on the restarted service; the open screen (its token cached for the old address)
      // shows it when asked, and opens a sample, without a reload.
      const fresh = await tokenFor(newUrl, TECH);
      await createSample(newUrl, fresh, 'after_crash', { organism: 'Homo sapiens', category: 'Genomic DNA' }, 8);
      await openScreen(page, 'projects');
      await openScreen(page, 'samples');
      await expect(page.getByRole('link', { name: 'after_crash' })).toBeVisible();
      await page.getByRole('link', { name: 'before_crash' }).click();
      await expect(page.getByTestId('sample-detail')).toContainText('before_crash');
      await expect(banner).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { survivor?: number }).survivor)).toBe(20);
      // The log tells IT what happened: the supervisor's restart, and a start that names the crash.
      const log = serviceLog(app.home);
      expect(log.filter((l) => l.event === 'supervisor.restarted').map((l) => l.url)).toEqual([newUrl]);
      expect(log.filter((l) => l.event === 'service.started').map((l) => l.previous_stop?.kind)).toEqual([
        'first-start',
        'crash',
      ]);
      if (portTaken) {
        await expectAccessible(page);
        await shootBoth(page, 'service-restart-recovered');
      }
    } finally {
      blocker?.close();
      await app.stop();
    }
  });
}
