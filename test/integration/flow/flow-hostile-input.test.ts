/**
 * Every route of the Flow mount's own OpenAPI document, sent malformed requests (odd path
 * parameters, junk queries, wrong and broken bodies, multipart without a blob, a blob without
 * fields): each answers 2xx or 4xx with a JSON object body (flowbio crashes on an array or a
 * scalar) or an empty one, never a 500; the service logs no internal error (the test service
 * fails its stop() when it does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../helpers/fastq-generator';
import { flowFetch, flowToken } from '../../helpers/flow/flow-wire-client';
import { startTestService, type TestService } from '../../helpers/test-service';
import { setupAdmin } from '../identity/helpers';

const PARAMS = ['1', '0', '999999999999', 'abc', '%00', '..%2F..', 'x'.repeat(300), 'generic', 'RNA'];
const QUERIES = [
  '',
  '?page=0',
  '?count=1000',
  '?page=abc&count=-1',
  '?name=%27%3B--&organism=Zz&sample_types=,,',
  '?return_data=yes',
];

function bodies(rand: () => number): Array<{ headers: Record<string, string>; body: BodyInit | undefined }> {
  const fd = (fields: Record<string, string>, blob?: Buffer) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (blob) form.append('blob', new Blob([new Uint8Array(blob)]), fields.filename ?? 'x.fastq');
    return form;
  };
  const junk = Buffer.from(Array.from({ length: 64 }, () => Math.floor(rand() * 256)));
  return [
    { headers: {}, body: undefined },
    { headers: { 'content-type': 'application/json' }, body: '{"params":' },
    { headers: { 'content-type': 'application/json' }, body: '[1,2,3]' },
    { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ params: 'x', csv_params: [] }) },
    { headers: { 'content-type': 'multipart/form-data' }, body: 'no boundary' },
    { headers: {}, body: fd({ filename: 'a.fastq', expected_file_size: '0', is_last: 'true', data: '' }) },
    { headers: {}, body: fd({}, junk) },
    { headers: {}, body: fd({ filename: 'a.fastq', expected_file_size: '-5', is_last: 'maybe', data: 'nope' }, junk) },
    {
      headers: {},
      body: fd({ filename: 'a.csv', expected_file_size: '0', is_last: 'true', data: '', reads1: 'x' }, junk),
    },
  ];
}

describe('the Flow mount under malformed requests', () => {
  let service: TestService;
  let token: string;
  let doc: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    service = await startTestService();
    await setupAdmin(service);
    const base = `${service.url}/flow/api`;
    token = await flowToken(base);
    doc = (await (await service.api('/flow/api/openapi.json')).json()) as typeof doc;
  });
  afterAll(async () => {
    await service.stop();
  });

  it('answers every documented route with 2xx/4xx and an object or empty body', async () => {
    const rand = prng(2026);
    const base = `${service.url}/flow/api`;
    let sent = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        for (let i = 0; i < 6; i++) {
          const filled = path.replace(/\{[^}]+\}/g, () => PARAMS[Math.floor(rand() * PARAMS.length)]!);
          const query = QUERIES[Math.floor(rand() * QUERIES.length)]!;
          const variants = method === 'get' ? [{ headers: {}, body: undefined }] : bodies(rand);
          const v = variants[Math.floor(rand() * variants.length)]!;
          const res = await flowFetch(base, `${filled}${query}`, {
            method: method.toUpperCase(),
            headers: v.headers,
            body: v.body,
            token: i % 3 === 0 ? undefined : token,
          });
          sent++;
          const what = `${method.toUpperCase()} ${filled}${query} -> ${res.status} ${res.text.slice(0, 200)}`;
          expect(res.status < 500, what).toBe(true);
          if (res.text !== '' && !path.startsWith('/annotation/') && !path.startsWith('/downloads/')) {
            expect(
              (typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body)) || res.status < 300,
              what,
            ).toBe(true);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(150);
  });
});
