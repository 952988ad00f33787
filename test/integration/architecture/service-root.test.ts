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

/**
 * Module-level registries: a `new Map` or `new WeakMap` made at a module's top level outlives
 * every service of the process and is shared by all of them, so the service's state must not
 * live there (a part on `ctx.parts` instead). What may: maps keyed by one request, operation or
 * event (they go with it), and the caches of pure facts listed below.
 */
const PER_REQUEST_KEYS = /^(FastifyRequest|GqlContext|DeliveredEvent|object)\b/;

/** Module-level maps that are caches of facts, not state of a service, and why. */
const CACHES: Record<string, string> = {
  'policy/resource-kinds.ts': 'whether a table exists in a database (tables never disappear)',
  'executions/executions.store.ts': 'prepared statements of a database (they go with the database)',
  'uploads/uploads.store.ts': 'prepared statements of a database (they go with the database)',
  'db/statements.ts': 'prepared statements of a database (they go with the database)',
  'auth/tokens.ts': 'tokens whose signature verified under a secret (a fact of the token and the secret)',
  'tools/demux/placement.ts': "the parsed headers of one lane's sampled reads (they go with the sample, one operation)",
  'tools/qc/gc-model.ts': 'GC-content models computed from a read length (pure)',
  'executions/tool-versions.ts': "the installed programs' versions (a fact of the machine)",
};

function registriesIn(text: string): string[] {
  return text.split('\n').filter((line) => {
    const m = /^(?:export\s+)?(?:const|let)\s+\w+\s*(?::[^=]+)?=\s*new\s+(?:Weak)?Map\b(?:<\s*([^,>]+))?/.exec(line);
    return m !== null && !PER_REQUEST_KEYS.test(m[1]?.trim() ?? '');
  });
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
    // A registry keyed by the database, or by anything a service holds across requests.
    expect(registriesIn('const pendingByDb = new WeakMap<Db, Map<string, Pending>>();')).toHaveLength(1);
    expect(registriesIn('const building = new Map<string, Promise<void>>();')).toHaveLength(1);
    expect(registriesIn('export const receivers: Map<string, R> = new Map();')).toHaveLength(1);
    // Per-request state goes with its request.
    expect(registriesIn('const states = new WeakMap<FastifyRequest, AuthState>();')).toHaveLength(0);
    expect(registriesIn('  const local = new Map<string, number>();')).toHaveLength(0);
  });

  it('has no module-level registry of services in src/service', () => {
    const found = sourceFiles(serviceDir).flatMap((file) => {
      const name = relative(serviceDir, file);
      if (CACHES[name]) return [];
      return registriesIn(readFileSync(file, 'utf8')).map((line) => `${name}: ${line.trim()}`);
    });
    expect(found).toEqual([]);
    // The exceptions still exist (a stale entry would hide a new registry in that file).
    for (const name of Object.keys(CACHES)) {
      expect(registriesIn(readFileSync(join(serviceDir, name), 'utf8')), name).not.toEqual([]);
    }
  });

  it('builds every part at start and stops them from the root', async () => {
    const service = await startTestService();
    const { parts } = service.ctx;
    expect(parts.tokenSecret.length).toBeGreaterThanOrEqual(32);
    expect(parts.pipelines.catalogue.pipelines.length).toBeGreaterThan(0);
    expect(parts.liveUploads.size).toBe(0);
    expect(parts.lanes.size).toBe(0);
    expect(parts.multiqc.building).toBe(0);
    expect(parts.referenceBuilds.size).toBe(0);
    expect(parts.weblogReceivers.size).toBe(0);
    expect(parts.pendingRefreshTokens.size).toBe(0);
    expect(parts.passwords.load).toBe(0);
    const health = await service.api('/api/health');
    expect(health.status).toBe(200);
    await service.stop();
    // Closed from the root: the closers ran and the database is closed last.
    expect(() => service.ctx.db.prepare('SELECT 1').get()).toThrow(/not open/);
  });
});
