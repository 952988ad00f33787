/**
 * The service has one composition root (`src/service/services.ts`): its long-lived parts are
 * built there once and reached through `ctx.parts`, never through a module-level registry
 * keyed by the context, and the service starts and stops from that root.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  'tools/qc/gc-model.ts': 'GC-content models computed from a read length (pure)',
  'executions/tool-versions.ts': "the installed programs' versions (a fact of the machine)",
};

/**
 * Values a module may build at its top level: constants (lookup sets and tables, an address
 * list). Anything else made with `new` there (a worker, a pool, a queue, a timer's owner) is a
 * long-lived part that every service of the process would share: it belongs on `ctx.parts`.
 */
const CONSTANT_CLASSES =
  /^(Set|Map|WeakMap|Uint8Array|Uint16Array|Int32Array|Float64Array|BlockList|RegExp|TextEncoder|TextDecoder)$/;

/** Module-level `let`s that hold a fact computed once (not a service's state), and why. */
const ONCE: Record<string, string> = {
  'vocabularies/vocabularies.ts': 'the vocabulary files read once per folder',
  'flow/flow-vocabulary.ts': 'organism codes derived from the loaded vocabulary (pure; keyed by it)',
  'engines/snakemake/conda-frontend.ts': 'which conda front end this machine has (a fact of the machine)',
  'engines/snakemake/snakemake-version.ts': "the installed Snakemake's version (a fact of the machine)",
  'http/validation.ts': "fast-json-stringify's compiler, loaded on first use (pure)",
  'http/response-check.ts': 'the Ajv instance that compiles response schemas in test runs (pure)',
  'tools/demux/demux-output-thread.ts': "a worker thread's own state (the thread is the part; its owner is on ctx)",
  'tools/demux/native-module.ts': "the demultiplexer's native module, loaded once per thread (a fact of the checkout)",
};

/** Module-level `new X()` of something that is not a constant value: a singleton part. */
function singletonsIn(text: string): string[] {
  return text.split('\n').filter((line) => {
    const m = /^(?:export\s+)?(?:const|let|var)\s+\w+\s*(?::[^=]+)?=\s*new\s+(\w+)/.exec(line);
    return m !== null && !CONSTANT_CLASSES.test(m[1]!);
  });
}

/** Module-level mutable bindings, and timers started when a module loads. */
function mutableStateIn(text: string): string[] {
  return text
    .split('\n')
    .filter(
      (line) =>
        /^(?:export\s+)?(?:let|var)\s+\w+/.test(line) || /^(?:void\s+)?set(?:Interval|Timeout|Immediate)\(/.test(line),
    );
}

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

  it('finds a module-level singleton part or mutable state where one is written (the check can fail)', () => {
    expect(singletonsIn('const parser = new SheetParser();')).toHaveLength(1);
    expect(singletonsIn('export const pool: PasswordPool = new PasswordPool();')).toHaveLength(1);
    expect(singletonsIn('let tickets = new TicketBook(60_000);')).toHaveLength(1);
    expect(singletonsIn("const SKIP = new Set(['work']);")).toHaveLength(0);
    expect(singletonsIn('const DIGIT = new Uint8Array(65536).fill(4);')).toHaveLength(0);
    expect(singletonsIn('  const parser = new SheetParser();')).toHaveLength(0);
    expect(mutableStateIn('let current: Worker | null = null;')).toHaveLength(1);
    expect(mutableStateIn('setInterval(sweep, 60_000).unref();')).toHaveLength(1);
    expect(mutableStateIn('  let n = 0;')).toHaveLength(0);
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

  it('has no module-level singleton part, mutable binding or timer in src/service', () => {
    const found = sourceFiles(serviceDir).flatMap((file) => {
      const name = relative(serviceDir, file);
      const text = readFileSync(file, 'utf8');
      const lines = [...singletonsIn(text), ...(ONCE[name] ? [] : mutableStateIn(text))];
      return lines.map((line) => `${name}: ${line.trim()}`);
    });
    expect(found).toEqual([]);
    for (const name of Object.keys(ONCE)) {
      expect(mutableStateIn(readFileSync(join(serviceDir, name), 'utf8')), name).not.toEqual([]);
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
    // The sheet-parse thread starts at the first sheet, not with the service.
    expect(parts.sheetParser.running).toBe(false);
    const health = await service.api('/api/health');
    expect(health.status).toBe(200);
    // A sheet read starts the service's own parse thread.
    const sheet = join(mkdtempSync(join(tmpdir(), 'root-')), 'sheet.csv');
    writeFileSync(sheet, 'Sample Name,Barcode\nS1,ACGT\n');
    const parsed = await parts.sheetParser.read(sheet, 'sheet.csv');
    expect(parsed.rows.length).toBe(1);
    expect(parts.sheetParser.running).toBe(true);
    await service.stop();
    // Closed from the root: the closers ran and the database is closed last.
    expect(() => service.ctx.db.prepare('SELECT 1').get()).toThrow(/not open/);
    expect(parts.sheetParser.running).toBe(false);
    await expect(parts.sheetParser.read(sheet, 'sheet.csv')).rejects.toThrow(/stopping/);
  });
});
