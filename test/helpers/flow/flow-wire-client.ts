/**
 * The Flow wire as flowbio speaks it (FLOW-WIRE.md §3), in TypeScript for the contract tests
 * that run without Python: one multipart POST per chunk, text fields first (filename,
 * expected_file_size as the offset, is_last, data), then the `blob` part.
 */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

export async function flowFetch(
  base: string,
  path: string,
  init: RequestInit & { token?: string } = {},
): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const res = await fetch(`${base}${path}`, { ...init, headers });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON: text holds it */
  }
  return { status: res.status, body, text };
}

/**
 * Signs in over Flow's `/login` (as flowbio does) and returns the access token; throws with
 * the answer when the server refuses.
 */
export async function flowToken(base: string, username = 'admin', password = 'correct horse'): Promise<string> {
  const login = await flowFetch(base, '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200 || typeof login.body.token !== 'string')
    throw new Error(`Flow /login answered ${login.status}: ${login.text}`);
  return login.body.token;
}

/** One chunk; `extra` fields repeat for list values, as httpx sends them. */
export function postChunk(
  base: string,
  endpoint: string,
  token: string,
  chunk: { filename: string; offset: number; isLast: boolean; data: string; bytes: Buffer },
  extra: Record<string, string | string[]> = {},
): Promise<Answer> {
  const form = new FormData();
  form.append('filename', chunk.filename);
  form.append('expected_file_size', String(chunk.offset));
  form.append('is_last', chunk.isLast ? 'true' : 'false');
  form.append('data', chunk.data);
  for (const [k, v] of Object.entries(extra)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  form.append('blob', new Blob([new Uint8Array(chunk.bytes)], { type: 'application/octet-stream' }), chunk.filename);
  return flowFetch(base, endpoint, { method: 'POST', body: form, token });
}

/** A whole file in chunks of `size`, as flowbio's uploader sends it; the last answer. */
export async function uploadInChunks(
  base: string,
  endpoint: string,
  token: string,
  filename: string,
  bytes: Buffer,
  size: number,
  extra: Record<string, string | string[]> = {},
): Promise<Answer> {
  const n = Math.max(1, Math.ceil(bytes.length / size));
  let data = '';
  let last!: Answer;
  for (let i = 0; i < n; i++) {
    last = await postChunk(
      base,
      endpoint,
      token,
      { filename, offset: i * size, isLast: i === n - 1, data, bytes: bytes.subarray(i * size, (i + 1) * size) },
      extra,
    );
    if (last.status !== 200) return last;
    data = String(last.body.data_id ?? last.body.id ?? '');
  }
  return last;
}
