/**
 * Issue 24 item 8: a stateful, multi-user property suite. fast-check's model-based testing
 * (fc.commands, fc.asyncModelRun) against the real service over HTTP and graphql-ws on an
 * ephemeral port, real SQLite in a temp folder: four users and two groups create projects and
 * samples, upload in chunks (any order, re-sent chunks, the final chunk re-sent), post lanes
 * with their sheets, run quality control and watch it, share and unshare at every level (with
 * and without "reads and results"), join and leave groups, download and delete, against a
 * model of who may see what (./model.ts). Properties: no 5xx, no request hangs past a bound,
 * every answer is the one the model expects (200 or 404 per resource, lists equal to the
 * model's, downloads byte for byte, subscriptions only for whom the model allows).
 *
 * `npm test` runs a small fixed-seed budget; LANEWAY_PROPS_LONG=1 runs a long one (and shrinks
 * a failure); LANEWAY_PROPS_SEED=<n> picks another seed and LANEWAY_PROPS_RUNS=<n> the number of runs. See docs/testing.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { tempDir } from '../../../helpers/temp';
import { startTestService, type TestService } from '../../../helpers/test-service';
import { SHIPPED_MANIFESTS } from '../../pipelines/pipeline-kit';
import type { Real } from './command-kit';
import { commandArbitraries } from './commands';
import { freshWorld, seedWorld } from './setup';
import { tally, Wire } from './wire';

const LONG = process.env.LANEWAY_PROPS_LONG === '1';
/** Shrinking replays on the real service: slow, so only in long mode unless asked (LANEWAY_PROPS_SHRINK=0/1). */
const SHRINK = (process.env.LANEWAY_PROPS_SHRINK ?? (LONG ? '1' : '0')) === '1';
const SEED = Number(process.env.LANEWAY_PROPS_SEED ?? 24_008);
const BUDGET = {
  numRuns: Number(process.env.LANEWAY_PROPS_RUNS ?? (LONG ? 20 : 5)),
  maxCommands: LONG ? 100 : 50,
};

vi.setConfig({ testTimeout: LONG ? 3_600_000 : 240_000, hookTimeout: 60_000 });

describe('stateful multi-user property suite (issue 24 item 8)', () => {
  const scratch = tempDir('laneway-props-');
  let service: TestService;
  let real: Real;
  let adminToken: string;

  beforeAll(async () => {
    // The shipped quality-control pipeline without its MultiQC step, which would take most of
    // the budget and is covered by the pipeline tests.
    const qc = JSON.parse(readFileSync(join(SHIPPED_MANIFESTS, 'fastq-quality-control.json'), 'utf8')) as {
      versions: Array<{ multiqc?: boolean }>;
    };
    for (const v of qc.versions) v.multiqc = false;
    writeFileSync(join(scratch.path, 'fastq-quality-control.json'), JSON.stringify(qc));
    process.env.LANEWAY_PIPELINES_DIR = scratch.path;
    service = await startTestService();
    const wire = new Wire(service.url);
    const admin = { username: 'admin', password: 'admin password 1', email: 'admin@lab.test', name: 'Admin' };
    await wire.call('POST', '/api/setup', null, admin);
    const login = { username: admin.username, password: admin.password };
    adminToken = (await wire.call('POST', '/api/login', null, login)).body.token as string;
    // Every run invites afresh; the per-account mail limits are not what this suite is about.
    const settings = { invitations_per_hour: 10_000, invitations_per_day: 100_000 };
    await wire.call('PUT', '/api/admin/settings', adminToken, settings);
    const pipelines = (await wire.call('GET', '/api/pipelines', adminToken)).body as unknown as Array<{
      versions: Array<{ id: number; is_latest: boolean }>;
    }>;
    real = { wire, qcVersion: pipelines[0]!.versions.find((v) => v.is_latest)!.id, dir: scratch.path };
  });
  afterAll(async () => {
    await service.stop();
    delete process.env.LANEWAY_PIPELINES_DIR;
    scratch.remove();
  });

  it('every user sees, downloads, runs and is told exactly what the model allows; no 5xx, no hang', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commandArbitraries(), { maxCommands: BUDGET.maxCommands, size: 'max' }),
        async (cmds) => {
          const tag = `r${++run}`;
          const model = await freshWorld(real.wire, { token: adminToken }, tag);
          await seedWorld(model, real);
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          if (LONG) console.log(`run ${tag}: ${tally.commands2xx} of ${tally.commands} commands succeeded so far`);
        },
      ),
      { seed: SEED, numRuns: BUDGET.numRuns, endOnFailure: !SHRINK, verbose: 1 },
    );
    console.log(
      `stateful suite: ${tally.commands2xx} of ${tally.commands} commands succeeded (2xx); ` +
        `${tally.requests2xx} of ${tally.requests} requests (seed ${SEED}, ${BUDGET.numRuns} runs of at most ${BUDGET.maxCommands} commands); ` +
        Object.entries(tally.byName)
          .map(([name, [ok, ran]]) => `${name} ${ok}/${ran}`)
          .join(', '),
    );
    if (tally.commands2xx * 2 < tally.commands) throw new Error('most commands should reach a handler successfully');
  });
});
