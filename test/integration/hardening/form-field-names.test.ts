/**
 * Multipart field names are the client's to pick. A chunk whose form held a field named
 * `__proto__`, `constructor` or `toString` once ended the whole service: the fields were kept on
 * a plain object, the name found the inherited member, and pushing a value onto it threw inside
 * busboy's parser (found in this round's review, by hand, with curl). Every multipart route of
 * /api and of the Flow mount gets each such name beside otherwise valid fields: each answers 2xx
 * or 4xx with its error body, the service keeps answering, and it logs no internal error. The
 * service is `laneway serve` in a process of its own, so that a crash is what a lab would see:
 * the connection drops and the test fails at once (in-process, the request only hung).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { flowToken } from '../../helpers/flow/flow-wire-client';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { fastqBytes, sha256 } from '../data/upload-helpers';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

/** Names an object literal inherits, and the one that sets its prototype. */
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype'];

interface Route {
  /** Path from the service's origin. */
  path: string;
  /** 'api' or 'flow': which sign-in's token it takes. */
  auth: 'api' | 'flow';
  /** The form's valid fields (the file part comes after them, named `file`). */
  fields: (n: number) => Record<string, string>;
  /** The file part's field name and content. */
  file: { field: string; name: string; bytes: Buffer };
}

const reads = fastqBytes(40, 50, 5);
const sheet = Buffer.from('Sample Name,Barcode\nS1,ACGTAC\nS2,TGCATG\n');

const ROUTES: Route[] = [
  {
    path: '/api/upload',
    auth: 'api',
    fields: (n) => ({
      filename: `names-${n}.fastq`,
      chunk: '0',
      total_chunks: '1',
      file_id: `names-${n}`,
      checksum: sha256(reads),
    }),
    file: { field: 'file', name: 'reads.fastq', bytes: reads },
  },
  {
    path: '/api/upload/multiplexed',
    auth: 'api',
    fields: (n) => ({ name: `Lane ${n}` }),
    file: { field: 'file', name: 'lane.fastq', bytes: reads },
  },
  {
    path: '/api/data/sheets',
    auth: 'api',
    fields: () => ({}),
    file: { field: 'sheet', name: 'sheet.csv', bytes: sheet },
  },
  ...['/upload', '/upload/sample', '/upload/multiplexed'].map((p): Route => ({
    path: `/flow/api${p}`,
    auth: 'flow',
    fields: (n) => ({ filename: `flow-${n}.fastq`, expected_file_size: '0', is_last: 'true', data: '' }),
    file: { field: 'blob', name: 'reads.fastq', bytes: reads },
  })),
  {
    path: '/flow/api/upload/annotation',
    auth: 'flow',
    fields: (n) => ({ filename: `sheet-${n}.csv`, expected_file_size: '0', is_last: 'true', data: '' }),
    file: { field: 'blob', name: 'sheet.csv', bytes: sheet },
  },
  {
    path: '/flow/api/graphql',
    auth: 'flow',
    fields: () => ({
      operations: JSON.stringify({ query: 'mutation ($file: Upload!) { uploadData(blob: $file) { dataId } }' }),
      map: JSON.stringify({ 0: ['variables.file'] }),
    }),
    file: { field: '0', name: 'reads.fastq', bytes: reads },
  },
];

describe('multipart field names an attacker picks', () => {
  let service: ServeProcess;
  const tokens = { api: '', flow: '' };

  beforeAll(async () => {
    service = await startServeProcess();
    const account = { username: 'admin', password: 'correct horse' };
    const json = (body: unknown) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const setup = await fetch(`${service.url}/api/setup`, json({ ...account, email: 'a@lab.test', name: 'Admin' }));
    expect(setup.status).toBe(201);
    tokens.api = ((await (await fetch(`${service.url}/api/login`, json(account))).json()) as { token: string }).token;
    tokens.flow = await flowToken(`${service.url}/flow/api`);
  });
  afterAll(async () => {
    const logged = service?.cli.stderr() ?? '';
    await service?.stop();
    // An internal error is a bug here too: none may have been logged.
    expect(logged).not.toMatch(/INTERNAL/);
  });

  let n = 0;
  for (const route of ROUTES) {
    it(`${route.path}: answers each name with 2xx or 4xx and its error body, and keeps serving`, async () => {
      for (const name of NAMES) {
        for (const where of ['before the file', 'after the file'] as const) {
          const form = new FormData();
          const fields = route.fields(n++);
          if (where === 'before the file') form.append(name, 'x');
          for (const [k, v] of Object.entries(fields)) form.append(k, v);
          form.append(route.file.field, new Blob([new Uint8Array(route.file.bytes)]), route.file.name);
          if (where === 'after the file') form.append(name, 'x');
          const res = await fetch(`${service.url}${route.path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[route.auth]}` },
            body: form,
          });
          const text = await res.text();
          const label = `${route.path}, a field named ${name} ${where}: ${res.status} ${text.slice(0, 200)}`;
          expect(res.status, label).toBeLessThan(500);
          const body = JSON.parse(text) as Record<string, unknown>;
          expect(typeof body, label).toBe('object');
          if (res.status >= 400 && route.auth === 'api') {
            expect(body, label).toMatchObject({ code: expect.any(String), status: res.status });
          }
        }
      }
      expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
    });
  }
});
