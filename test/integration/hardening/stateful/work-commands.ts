/**
 * Commands that make the service work: running the quality-control pipeline (watched over
 * graphql-ws by the runner and by an observer, who is told exactly what the model allows) and
 * posting a multiplexed lane with its sheet, demultiplexed in the background.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateLane } from '../../../helpers/fastq-generator';
import { active, key, mayCreateIn, sampleData, sees, type Model, type Sample } from './model';
import { pick, type Command, type Intent, type Real } from './command-kit';
import { END_MS, expectAnswer } from './wire';

/** Samples a user may run on: visible, with a read file they may read. */
const runnable = (m: Model, s: Sample, userId: number) =>
  sees(m, s, userId) && sampleData(m, s).every((d) => d.readOf !== s.key || sees(m, d, userId));

export class Run implements Command {
  constructor(
    readonly i: Intent,
    readonly picks: number[],
    readonly observer: number,
    readonly inGroup: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const pool = this.i.valid ? m.samples.filter((s) => runnable(m, s, u.id)) : m.samples;
    const samples = [...new Set(this.picks.map((n) => pick(pool, n)).filter((s): s is Sample => !!s))];
    if (!samples.length || (this.i.valid && !u.canRun)) return;
    const groups = this.i.valid ? m.groups.filter((g) => mayCreateIn(m, g.slug, u.id)) : m.groups;
    const slug = this.inGroup ? (pick(groups, this.i.target)?.slug ?? null) : null;
    const body = {
      name: `QC ${m.tag} ${++m.serial}`,
      samples: samples.map((s) => s.id),
      ...(slug ? { group_owner: slug } : {}),
    };
    const a = await r.wire.call('POST', `/api/pipelines/versions/${r.qcVersion}/run`, u.token, body);
    // The run command's order: the right to run, each sample visible, its reads readable, the owner.
    let refused: { status: number; code: string } | null = null;
    if (!u.canRun) refused = { status: 403, code: 'INSUFFICIENT_PERMISSIONS' };
    else if (samples.some((s) => !sees(m, s, u.id))) refused = { status: 404, code: 'NOT_FOUND' };
    else if (samples.some((s) => !runnable(m, s, u.id))) refused = { status: 400, code: 'INVALID_SAMPLES' };
    else if (slug && !active(m, slug, u.id)) refused = { status: 400, code: 'VALIDATION_ERROR' };
    else if (slug && !mayCreateIn(m, slug, u.id)) refused = { status: 403, code: 'PERMISSION_DENIED' };
    const what = this.toString();
    expectAnswer(a, refused?.status ?? 201, refused?.code ?? null, what);
    if (refused) return;
    const e = {
      key: key(m),
      id: a.body.id as number,
      ownerUser: slug ? null : u.id,
      ownerGroup: slug,
      shares: new Map(),
      sampleKeys: samples.map((s) => s.key),
    };
    m.executions.push(e);
    // The runner and an observer watch it to the end; the observer is told only if the model allows.
    const observer = pick(m.users, this.observer)!;
    const [mine, theirs] = await Promise.all([r.wire.subscribe(u.token, e.id), r.wire.subscribe(observer.token, e.id)]);
    if (mine.codes.length || mine.statuses.at(-1) !== 'completed') {
      const e2 = (await r.wire.call('GET', `/api/executions/${e.id}`, u.token)).body;
      const logs = (await r.wire.call('GET', `/api/executions/${e.id}/logs`, u.token)).body;
      throw new Error(
        `${what}: the runner's stream: ${JSON.stringify(mine)}; error: ${String(e2.error)}; logs: ${JSON.stringify(logs).slice(-1500)}`,
      );
    }
    const allowed = sees(m, e, observer.id);
    const told = theirs.statuses.length > 0;
    if (allowed !== told || (!allowed && !theirs.codes.includes('NOT_FOUND')))
      throw new Error(`${what}: observer ${observer.username} (allowed: ${allowed}) got ${JSON.stringify(theirs)}`);
    const done = await r.wire.call('GET', `/api/executions/${e.id}`, u.token);
    const outputs = done.body.outputs as Array<{ id: number; sample_id: number | null }>;
    if (done.body.status !== 'completed' || !outputs.length)
      throw new Error(`${what}: ${JSON.stringify(done.body).slice(0, 600)}`);
    for (const o of outputs) {
      m.data.push({
        key: key(m),
        id: o.id,
        ownerUser: e.ownerUser,
        ownerGroup: e.ownerGroup,
        shares: new Map(),
        sha256: null,
        fastq: false,
        sampleKey: samples.find((s) => s.id === o.sample_id)?.key ?? null,
        readOf: null,
        executionKey: e.key,
        laneReads: false,
      });
    }
  }
  toString = () =>
    `Run(${JSON.stringify(this.i)}, samples=${JSON.stringify(this.picks)}, observer=${this.observer}, group=${this.inGroup})`;
}

/** A CSV lane sheet as a lab writes it: the template's required columns and the barcode. */
function sheet(rows: Array<{ name: string; barcode: string }>): string {
  const lines = rows.map((b) => `${b.name},${b.barcode},Homo sapiens,Genomic DNA`);
  return ['Sample Name,Barcode,Organism,Category', ...lines].join('\n') + '\n';
}

export class Lane implements Command {
  constructor(
    readonly i: Intent,
    readonly samples: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const serial = ++m.serial;
    const dir = join(r.dir, `${m.tag}-lane${serial}`);
    mkdirSync(dir, { recursive: true });
    const gen = generateLane({ dir, reads: 120, samples: this.samples, kind: 'header', readLength: 30, seed: serial });
    const names = gen.barcodes.map((b) => ({ name: `L${m.tag}x${serial}x${b.name}`, barcode: b.barcode }));
    const reads = readFileSync(gen.read1);
    const form = new FormData();
    form.append('name', `Lane ${m.tag} ${serial}`);
    form.append('annotation', new Blob([sheet(names)]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(reads)]), `lane${serial}.fastq`);
    const what = this.toString();
    const a = await r.wire.call('POST', '/api/upload/multiplexed', u.token, form);
    expectAnswer(a, 202, null, what);
    const id = a.body.id as number;
    const deadline = Date.now() + END_MS;
    let lane = a.body;
    while (lane.status === 'demultiplexing') {
      if (Date.now() > deadline) throw new Error(`${what}: lane ${id} still demultiplexing after ${END_MS} ms`);
      await new Promise((res) => setTimeout(res, 100));
      lane = (await r.wire.call('GET', `/api/lanes/${id}`, u.token)).body;
    }
    if (lane.status !== 'complete') throw new Error(`${what}: lane ${id}: ${JSON.stringify(lane).slice(0, 600)}`);
    const laneKey = key(m);
    m.lanes.push({ key: laneKey, id, ownerUser: u.id });
    const data = (id: number, extra: { laneReads?: boolean; sha256?: string | null; bytes?: Buffer } = {}) => {
      const d = {
        key: key(m),
        id,
        ownerUser: u.id,
        ownerGroup: null,
        shares: new Map(),
        sha256: extra.sha256 ?? null,
        bytes: extra.bytes,
        fastq: true,
        sampleKey: null,
        readOf: null as number | null,
        executionKey: null,
        laneReads: extra.laneReads ?? false,
      };
      m.data.push(d);
      return d;
    };
    data(lane.read1 as number, {
      laneReads: true,
      sha256: createHash('sha256').update(reads).digest('hex'),
      bytes: reads,
    });
    for (const s of lane.samples as Array<{ sample_id: number | null; name: string }>) {
      if (s.sample_id === null)
        throw new Error(`${what}: a sheet row without a sample: ${JSON.stringify(lane.samples)}`);
      const body = (await r.wire.call('GET', `/api/samples/${s.sample_id}`, u.token)).body;
      const sample: Sample = {
        key: key(m),
        id: s.sample_id,
        ownerUser: u.id,
        ownerGroup: null,
        shares: new Map(),
        name: body.name as string,
        read1: body.read1 as number,
        laneKey,
      };
      m.samples.push(sample);
      data(sample.read1).readOf = sample.key;
    }
    for (const d of lane.undetermined_data as number[]) data(d);
  }
  toString = () => `Lane(${JSON.stringify(this.i)}, samples=${this.samples})`;
}
