/**
 * Commands that make and remove resources: projects, chunked uploads (chunks in any order,
 * re-sent, and the final chunk re-sent after completion), samples and deletions.
 */
import { createHash } from 'node:crypto';
import {
  accessTo,
  active,
  forget,
  key,
  listOf,
  mayCreateIn,
  satisfies,
  sees,
  type Data,
  type Kind,
  type Model,
  type Owned,
} from './model';
import { fastq, gate, pick, SEGMENT, type Command, type Intent, type Real } from './command-kit';
import { expectAnswer } from './wire';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The expected refusal of `group_owner` (null when the caller may create there, or none is named). */
function ownerRefusal(m: Model, slug: string | null, userId: number) {
  if (slug === null) return null;
  if (!active(m, slug, userId)) return { status: 400, code: 'VALIDATION_ERROR' };
  if (!mayCreateIn(m, slug, userId)) return { status: 403, code: 'PERMISSION_DENIED' };
  return null;
}

export class CreateProject implements Command {
  constructor(
    readonly i: Intent,
    readonly inGroup: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const groups = this.i.valid ? m.groups.filter((g) => mayCreateIn(m, g.slug, u.id)) : m.groups;
    const slug = this.inGroup ? (pick(groups, this.i.target)?.slug ?? null) : null;
    const body = { name: `P ${m.tag} ${++m.serial}`, ...(slug ? { group_owner: slug } : {}) };
    const a = await r.wire.call('POST', '/api/projects/', u.token, body);
    const refused = ownerRefusal(m, slug, u.id);
    expectAnswer(a, refused?.status ?? 201, refused?.code ?? null, this.toString());
    if (refused) return;
    const ownedByGroup = slug !== null;
    m.projects.push({
      key: key(m),
      id: a.body.id as number,
      ownerUser: ownedByGroup ? null : u.id,
      ownerGroup: slug,
      shares: new Map(),
      samples: new Set(),
    });
  }
  toString = () => `CreateProject(${JSON.stringify(this.i)}, group=${this.inGroup})`;
}

export interface UploadPlan {
  reads: number;
  chunkBytes: number;
  /** Sort keys: chunks are sent in the order of these. */
  order: number[];
  /** Chunks sent twice in a row (identical bytes). */
  resend: boolean[];
  /** The checksum with every chunk (a duplicate is refused at the first). */
  checksumEarly: boolean;
  /** Re-upload the bytes of a record the caller can see (a duplicate). */
  duplicate: boolean;
  resendLast: boolean;
}

export class Upload implements Command {
  constructor(
    readonly i: Intent,
    readonly p: UploadPlan,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const candidates = m.data.filter((d) => d.bytes && sees(m, d, u.id));
    const source = this.p.duplicate ? pick(candidates, this.i.target) : undefined;
    const bytes = source?.bytes ?? fastq(m.tag, ++m.serial, this.p.reads);
    const sum = sha256(bytes);
    const total = Math.ceil(bytes.length / this.p.chunkBytes);
    const order = [...Array(total).keys()].sort((a, b) => (this.p.order[a] ?? 0) - (this.p.order[b] ?? 0) || a - b);
    const fileId = `${m.tag}-u${++m.serial}`;
    const filename = `${fileId}.fastq`;
    // The record a duplicate answers with: the lowest id among those the caller can see.
    const dup = m.data.filter((d) => d.sha256 === sum && sees(m, d, u.id)).sort((a, b) => a.id - b.id)[0];
    const send = (idx: number) => {
      const form = new FormData();
      form.append('filename', filename);
      form.append('chunk', String(idx));
      form.append('total_chunks', String(total));
      form.append('file_id', fileId);
      if (this.p.checksumEarly || idx === order.at(-1)) form.append('checksum', sum);
      const part = bytes.subarray(idx * this.p.chunkBytes, (idx + 1) * this.p.chunkBytes);
      form.append('file', new Blob([new Uint8Array(part)]), filename);
      return r.wire.call('POST', '/api/upload', u.token, form);
    };
    const what = this.toString();
    for (const [n, idx] of order.entries()) {
      const last = n === order.length - 1;
      const a = await send(idx);
      if (dup && (last || (this.p.checksumEarly && n === 0))) {
        expectAnswer(a, 409, 'DUPLICATE_FILE', what);
        if (a.body.data_id !== dup.id)
          throw new Error(`${what}: duplicate of ${String(a.body.data_id)}, not ${dup.id}`);
        return;
      }
      if (!last) {
        if (a.status !== 200 || a.body.received !== n + 1)
          throw new Error(`${what}: chunk ${idx}: ${JSON.stringify(a.body)}`);
        if (this.p.resend[idx]) {
          const again = await send(idx);
          if (again.status !== 200 || again.body.received !== n + 1)
            throw new Error(`${what}: re-sent chunk ${idx}: ${again.status} ${JSON.stringify(again.body)}`);
        }
        continue;
      }
      expectAnswer(a, 200, null, what);
      if (a.body.size !== bytes.length || typeof a.body.id !== 'number')
        throw new Error(`${what}: ${JSON.stringify(a.body)}`);
      const d: Data = {
        key: key(m),
        id: a.body.id,
        ownerUser: u.id,
        ownerGroup: null,
        shares: new Map(),
        sha256: sum,
        bytes,
        fastq: true,
        sampleKey: null,
        readOf: null,
        executionKey: null,
        laneReads: false,
      };
      m.data.push(d);
      if (this.p.resendLast) {
        // The final chunk again: the upload is complete, so it answers the same record.
        const again = await send(idx);
        if (again.status !== 200 || again.body.id !== d.id)
          throw new Error(`${what}: final re-send: ${JSON.stringify(again.body)}`);
      }
    }
  }
  toString = () => `Upload(${JSON.stringify(this.i)}, ${JSON.stringify(this.p)})`;
}

export class CreateSample implements Command {
  constructor(
    readonly i: Intent,
    readonly withProject: number | null,
    readonly inGroup: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const usable = (d: Data) => d.fastq && d.readOf === null && satisfies(accessTo(m, d, u.id), 'edit');
    const read = pick(this.i.valid ? m.data.filter(usable) : m.data, this.i.target);
    if (!read) return;
    const projects = this.i.valid ? m.projects.filter((p) => satisfies(accessTo(m, p, u.id), 'edit')) : m.projects;
    const project = this.withProject === null ? undefined : pick(projects, this.withProject);
    const groups = this.i.valid ? m.groups.filter((g) => mayCreateIn(m, g.slug, u.id)) : m.groups;
    const slug = this.inGroup ? (pick(groups, this.i.target)?.slug ?? null) : null;
    const body = {
      name: `S-${m.tag}-${++m.serial}`,
      read1: read.id,
      metadata: { Organism: 'Homo sapiens', Category: 'Genomic DNA' },
      ...(project ? { project: project.id } : {}),
      ...(slug ? { group_owner: slug } : {}),
    };
    const a = await r.wire.call('POST', '/api/samples/', u.token, body);
    // The service's order: the read (visible, editable, FASTQ, free), the project, the owner.
    const readAccess = accessTo(m, read, u.id);
    const readBad = !satisfies(readAccess, 'edit') || !read.fastq || read.readOf !== null;
    const refused = readBad
      ? { status: 400, code: 'VALIDATION_ERROR' }
      : ((project && gate(m, project, u, 'edit')) ?? ownerRefusal(m, slug, u.id));
    expectAnswer(a, refused?.status ?? 201, refused?.code ?? null, this.toString());
    if (refused) return;
    const sample = {
      key: key(m),
      id: a.body.id as number,
      ownerUser: slug ? null : u.id,
      ownerGroup: slug,
      shares: new Map(),
      name: body.name,
      read1: read.id,
      laneKey: null,
    };
    m.samples.push(sample);
    read.readOf = sample.key;
    project?.samples.add(sample.key);
  }
  toString = () => `CreateSample(${JSON.stringify(this.i)}, project=${this.withProject}, group=${this.inGroup})`;
}

export class Delete implements Command {
  constructor(
    readonly i: Intent,
    readonly kind: Exclude<Kind, 'execution'>,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const u = pick(m.users, this.i.actor)!;
    const all = listOf(m, this.kind);
    const target: Owned | undefined = pick(
      this.i.valid ? all.filter((x) => accessTo(m, x, u.id) === 'full') : all,
      this.i.target,
    );
    if (!target) return;
    const a = await r.wire.call('DELETE', `/api/${SEGMENT[this.kind]}/${target.id}`, u.token);
    let refused = gate(m, target, u, 'full');
    const d = this.kind === 'data' ? (target as Data) : null;
    if (!refused && d && (d.readOf !== null || d.laneReads)) refused = { status: 409, code: 'CONFLICT' };
    expectAnswer(a, refused?.status ?? 204, refused?.code ?? null, this.toString());
    if (!refused) forget(m, this.kind, target);
  }
  toString = () => `Delete(${JSON.stringify(this.i)}, ${this.kind})`;
}
