/**
 * The service has one composition root (`src/service/services.ts`): its long-lived parts are
 * built there once and reached through `ctx.parts`, never through a module-level registry
 * keyed by the context, and the service starts and stops from that root.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestService } from '../../helpers/test-service';

const serviceDir = resolve(import.meta.dirname, '../../../src/service');

/** Module-level registries: a WeakMap or Map keyed by the service context. */
function registriesIn(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => /^(export\s+)?const\s+\w+\s*=\s*new\s+(Weak)?Map<\s*(Service|Store)Context\b/.test(line));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('the service composition root', () => {
  it('finds a registry where one is written (the check can fail)', () => {
    expect(registriesIn('const states = new WeakMap<ServiceContext, MailState>();')).toHaveLength(1);
    expect(registriesIn('export const x = new Map<StoreContext, number>();')).toHaveLength(1);
    expect(registriesIn('const parts = {} as ServiceParts;')).toHaveLength(0);
  });

  it('has no module-level registry of services in src/service', () => {
    const found = sourceFiles(serviceDir).flatMap((file) =>
      registriesIn(readFileSync(file, 'utf8')).map((line) => `${relative(serviceDir, file)}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('builds every part at start and stops them from the root', async () => {
    const service = await startTestService();
    const { parts } = service.ctx;
    expect(parts.tokenSecret.length).toBeGreaterThanOrEqual(32);
    expect(parts.pipelines.catalogue.pipelines.length).toBeGreaterThan(0);
    expect(parts.liveUploads.size).toBe(0);
    expect(parts.lanes.size).toBe(0);
    expect(parts.multiqc.building).toBe(0);
    const health = await service.api('/api/health');
    expect(health.status).toBe(200);
    await service.stop();
    // Closed from the root: the closers ran and the database is closed last.
    expect(() => service.ctx.db.prepare('SELECT 1').get()).toThrow(/not open/);
  });
});
