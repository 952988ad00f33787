/**
 * Flow's answers for the renderer's screens (FLOW-WIRE.md §7's mapping) in the shapes of
 * Laneway's `/api` the screens already read: integer ids from Flow's string ids, ISO times
 * from Unix seconds, Laneway's page envelope from Flow's `{count, page, <items>}`. A field
 * Flow has no equivalent for is left out (the screens say so for that field), never faked.
 */
type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Unix seconds (or an ISO string, as Flow's sample lists give) as ISO-8601; '' when absent. */
export function isoOf(t: unknown): string {
  if (typeof t === 'number') return new Date(t * 1000).toISOString();
  return typeof t === 'string' ? t : '';
}

/** Flow's page `{count, page, <key>: [...]}` as Laneway's `{count, page, per_page, items}`. */
export function lanePage(raw: unknown, key: string, perPage: number, item: (x: unknown) => Obj): Obj {
  const r = obj(raw);
  return { count: Number(r.count ?? 0), page: Number(r.page ?? 1), per_page: perPage, items: arr(r[key]).map(item) };
}

/** Metadata values by attribute, Flow's organism (by Latin name) and sample type as Laneway's. */
function metadataOf(s: Obj): Obj {
  const metadata: Obj = {};
  const organism = obj(s.organism);
  if (s.organism) metadata.organism = str(organism.latin_name ?? organism.name);
  const type = s.sample_type;
  if (type) metadata.category = typeof type === 'object' ? str(obj(type).identifier ?? obj(type).name) : str(type);
  for (const [k, v] of Object.entries(obj(s.metadata))) metadata[k] = typeof v === 'object' ? obj(v).value : v;
  return metadata;
}

/** An owner as Laneway names it (a username), from Flow's `owner` object or `owner_name`. */
function ownerOf(x: Obj): string | null {
  const o = obj(x.owner);
  return str(o.username || o.name || x.owner_name) || null;
}

/** A data file (Flow's data detail, search item or sample data item) as Laneway's data record. */
export function screenData(raw: unknown): Obj {
  const d = obj(raw);
  const sample = obj(d.sample);
  return {
    id: Number(d.id),
    filename: str(d.filename),
    size: typeof d.size === 'number' ? d.size : 0,
    data_type: str(d.filetype ?? d.category) || (/\.f(ast)?q(\.gz)?$/i.test(str(d.filename)) ? 'fastq' : ''),
    // Flow shows no checksum of a file.
    checksum: '',
    created: isoOf(d.created),
    sample_id: sample.id ? Number(sample.id) : null,
    execution_id: d.execution ? Number(d.execution) : null,
    owner: ownerOf(d),
    group_owner: null,
    can_edit: d.can_edit === true || d.can_delete === true,
    can_share: false,
  };
}

/**
 * A sample: Flow's search item (no files: `data` is left out, the list says the size is not
 * known) or its detail with its files from `/samples/{id}/data`.
 */
export function screenSample(raw: unknown, files?: unknown[]): Obj {
  const s = obj(raw);
  const filesets = arr(s.filesets).flatMap((f) => arr(obj(f).data));
  const reads = filesets.map((d) => Number(obj(d).id));
  const paired = s.is_paired === true || reads.length > 1;
  const project = obj(s.project);
  const lane = s.lane_id;
  return {
    id: Number(s.id),
    name: str(s.name),
    read1: reads[0] ?? 0,
    read2: reads[1] ?? null,
    paired,
    metadata: metadataOf(s),
    ...(lane !== undefined ? { lane_id: lane === null ? null : Number(lane) } : {}),
    ...(project.id ? { project_ids: [Number(project.id)] } : {}),
    created: isoOf(s.created),
    ...(files ? { data: files.map(screenData) } : {}),
    owner: ownerOf(s),
    group_owner: s.group_owner ? str(obj(s.group_owner).slug ?? s.group_owner) : null,
    can_edit: s.can_edit === true || s.can_delete === true,
    can_share: false,
  };
}

/** A project: Flow's search item or detail, with the samples when they were read. */
export function screenProject(raw: unknown, samples?: unknown[]): Obj {
  const p = obj(raw);
  const members = (samples ?? []).map((x) => ({ id: Number(obj(x).id), name: str(obj(x).name) }));
  return {
    id: Number(p.id),
    name: str(p.name),
    description: str(p.description),
    sample_ids: members.map((m) => m.id),
    ...(samples ? { samples: members } : {}),
    ...(p.sample_count !== undefined ? { sample_count: Number(p.sample_count) } : {}),
    owner: ownerOf(p),
    group_owner: p.group_owner ? str(obj(p.group_owner).slug) : null,
    can_edit: false,
    can_share: false,
    created: isoOf(p.created),
    updated: isoOf(p.created),
  };
}

/** Flow's process executions as Laneway's process list. */
export function screenProcesses(raw: unknown): Obj[] {
  return arr(raw).map((x) => {
    const p = obj(x);
    const status = str(p.status).toLowerCase();
    const ended = ['ok', 'completed', 'error', 'failed', 'canceled', 'cancelled'].includes(status);
    return {
      name: str(p.process_name || p.name),
      status: status === 'ok' ? 'completed' : status === 'error' ? 'failed' : status || 'queued',
      progress: ended ? 100 : 0,
      start_time: p.started ? isoOf(p.started) : null,
      end_time: p.finished ? isoOf(p.finished) : null,
      exit_code: typeof p.exit_code === 'number' ? p.exit_code : null,
    };
  });
}

/**
 * Flow's execution log (one text, read from a byte offset) as Laneway's log entries: each line's
 * id is the byte offset just after it, so the screens' cursor (`after`) is Flow's `log` offset.
 */
export function screenLogLines(
  text: string,
  from: number,
  when: string,
  final: boolean,
): { items: Obj[]; next: number } {
  const items: Obj[] = [];
  let offset = from;
  const bytes = Buffer.from(text, 'utf8');
  let start = 0;
  const push = (end: number, next: number) => {
    const message = bytes.subarray(start, end).toString('utf8');
    offset = from + next;
    start = next;
    items.push({ id: offset, timestamp: when, process: '', message, level: /error/i.test(message) ? 'error' : 'info' });
  };
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) push(i, i + 1);
  // A line still being written waits for its end, unless the execution has ended.
  if (final && start < bytes.length) push(bytes.length, bytes.length);
  return { items, next: offset };
}
