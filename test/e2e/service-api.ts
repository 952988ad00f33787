/**
 * Direct calls to the real service for test set-up (accounts, seed data) and for checking what
 * the UI did: the same HTTP API the app uses.
 */
export interface Account {
  username: string;
  password: string;
  email: string;
  name: string;
}

export const TECH: Account = {
  username: 'tess',
  password: 'pipette-and-flowcell-42',
  email: 'tess@lab.example',
  name: 'Tess Technician',
};
export const SECOND: Account = {
  username: 'omar',
  password: 'second-bench-password-7',
  email: 'omar@lab.example',
  name: 'Omar Otherbench',
};

/** A JSON request; throws with the service's error body on failure. */
export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; form?: FormData } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(new URL(path, base), { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Creates the service's first account unless one exists (409). */
export async function ensureFirstAccount(base: string, account: Account = TECH): Promise<void> {
  const res = await fetch(new URL('/api/setup', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (res.status !== 201 && res.status !== 200 && res.status !== 409)
    throw new Error(`setup: ${res.status} ${await res.text()}`);
}

/** Signs in over the API and returns an access token. */
export async function tokenFor(base: string, account: Account = TECH): Promise<string> {
  const r = await call<{ token: string }>(base, 'POST', '/api/login', {
    body: { username: account.username, password: account.password },
  });
  return r.token;
}

/**
 * The technician over the API (the first account, made if missing): a token, and a tag
 * (`<prefix><5 digits>`) that keeps this test's names apart from earlier runs' on the same app.
 */
export async function technician(base: string, tagPrefix: string): Promise<{ token: string; tag: string }> {
  await ensureFirstAccount(base);
  return { token: await tokenFor(base, TECH), tag: `${tagPrefix}${Date.now() % 100000}` };
}

/** Creates a further user as the admin, unless the username exists. */
export async function ensureUser(base: string, adminToken: string, account: Account): Promise<void> {
  const res = await fetch(new URL('/api/users/', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ ...account, can_run_pipelines: true }),
  });
  if (res.status === 201 || res.status === 409) return;
  const text = await res.text();
  // The service answers a taken username with 400 and the field's reason (an earlier spec on
  // the same service made this account).
  if (
    res.status === 400 &&
    (JSON.parse(text) as { fields?: { username?: string } }).fields?.username === 'already taken'
  )
    return;
  throw new Error(`create user: ${res.status} ${text}`);
}

/** A tiny valid FASTQ file's bytes (n reads of a fixed length). */
export function fastq(n: number, seed = 0): Buffer {
  const bases = 'ACGT';
  let out = '';
  for (let i = 0; i < n; i++) {
    let seq = '';
    for (let j = 0; j < 50; j++) seq += bases[(i * 7 + j * 3 + seed) % 4];
    // Names pair across read 1 and read 2 files; the seed in the comment keeps files distinct.
    out += `@read_${i} seed=${seed}\n${seq}\n+\n${'I'.repeat(50)}\n`;
  }
  return Buffer.from(out);
}

/** Uploads one file in a single chunk and returns its data record id. */
export async function uploadFile(base: string, token: string, filename: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), filename);
  form.set('filename', filename);
  form.set('chunk', '0');
  form.set('total_chunks', '1');
  form.set('file_id', `${filename}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  const r = await call<{ id: number }>(base, 'POST', '/api/upload', { token, form });
  return r.id;
}

export interface ServiceSample {
  id: number;
  name: string;
  metadata: Record<string, unknown>;
}

/** The technician's samples whose names contain `text` (the service's name filter; 100 at most). */
export async function samplesNamed(base: string, text: string): Promise<ServiceSample[]> {
  const token = await tokenFor(base, TECH);
  const page = await call<{ items: ServiceSample[] }>(
    base,
    'GET',
    `/api/samples/?per_page=100&name=${encodeURIComponent(text)}`,
    { token },
  );
  return page.items;
}

/** The metadata of most set-up samples: what the service requires, and nothing else. */
export const HUMAN_DNA = { organism: 'Homo sapiens', category: 'Genomic DNA' };

/** Uploads reads and creates a sample from them. */
export async function createSample(
  base: string,
  token: string,
  name: string,
  metadata: Record<string, string>,
  seed: number,
  reads = 20,
): Promise<{ id: number; name: string }> {
  const read1 = await uploadFile(base, token, `${name}_R1.fastq`, fastq(reads, seed));
  return call(base, 'POST', '/api/samples/', { token, body: { name, read1, metadata } });
}
