/**
 * Issue 24 item 7, "a GraphQL cost limit": a query within the 100,000-character cap asked for
 * 1,900 aliased catalogues (`pipelines { versions { parameters { name } } }`), took 1.4 s of the
 * service and answered 1.7 MB; fragments spread inside fragments grow exponentially. A document
 * asking for more than 500 fields (fragments counted as spread) is refused before it runs, over
 * POST and over the socket, with VALIDATION_ERROR; the clients' own operations are far below.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXECUTION_UPDATES_SUBSCRIPTION } from '../../../src/shared/service-api/graphql-operations';
import { MAX_FIELDS, fieldCount } from '../../../src/service/graphql/document-cost';
import { parse } from 'graphql';
import { startKit, wsClient, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

type Answer = { data?: unknown; errors?: Array<{ message: string; extensions?: { code?: string } }> };

describe('GraphQL cost limit (issue 24 item 7)', () => {
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit();
  });
  afterAll(async () => {
    await kit.stop();
  });
  const gql = (query: string) => kit.api<Answer>('/api/graphql', kit.adminToken, { body: { query } });

  const aliases = (n: number) =>
    `{${Array.from({ length: n }, (_, i) => `a${i}:pipelines{versions{parameters{name}}}`).join(' ')}}`;
  // Ten fragments, each spreading the next twice: 2^10 copies of the last one's field.
  const doubling = [
    'query { pipelines { ...F0 } }',
    ...Array.from(
      { length: 10 },
      (_, i) => `fragment F${i} on Pipeline { a: versions { ...F${i + 1} } b: versions { ...F${i + 1} } }`,
    ),
    'fragment F10 on PipelineVersion { id }',
  ].join('\n');

  it('refuses 1,900 aliases and exponential fragments before running them', async () => {
    for (const query of [aliases(1900), doubling]) {
      const r = await gql(query);
      expect(r.status).toBe(200);
      expect(r.body.data).toBeUndefined();
      expect(r.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/At most 500 fields/),
          extensions: expect.objectContaining({ code: 'VALIDATION_ERROR' }),
        }),
      ]);
    }
    expect(fieldCount(parse(doubling), 1e9)).toBeGreaterThan(2000);
  });

  it('runs what clients send, and a document at the limit', async () => {
    expect(fieldCount(parse(EXECUTION_UPDATES_SUBSCRIPTION))).toBeLessThan(50);
    const r = await gql(aliases(MAX_FIELDS / 4));
    expect(r.body.errors).toBeUndefined();
    expect(Object.keys(r.body.data as object)).toHaveLength(MAX_FIELDS / 4);
  });

  it('refuses a costly document over the socket too', async () => {
    const client = wsClient(kit, kit.adminToken);
    try {
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: aliases(1900) },
          { next: (v) => resolve(v.errors), error: resolve, complete: () => resolve(null) },
        );
      });
      expect(JSON.stringify(errors)).toMatch(/At most 500 fields/);
    } finally {
      await client.dispose();
    }
  });
});
