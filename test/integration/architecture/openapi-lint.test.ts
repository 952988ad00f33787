/**
 * The OpenAPI document the service generates from its routes passes `redocly lint` (pinned
 * @redocly/cli, recommended rules, run offline), and carries what clients need: an operationId
 * per route, each route's 4xx answers with the shared Error schema, and a servers entry.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redoclyLint } from '../../helpers/redocly-lint';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';

type Operation = { operationId?: string; security?: unknown[]; responses: Record<string, { content?: unknown }> };
type Document = {
  servers?: Array<{ url: string }>;
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
};

let service: TestService;
let doc: Document;
const tmp = tempDir('laneway-openapi-');

beforeAll(async () => {
  service = await startTestService();
  doc = (await (await service.api('/api/openapi.json')).json()) as Document;
});
afterAll(async () => {
  await service.stop();
  tmp.remove();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method, op })),
  );

describe('the generated OpenAPI document', () => {
  it('passes redocly lint with the recommended rules', async () => {
    const result = await redoclyLint(doc, join(tmp.path, 'openapi.json'));
    expect(result.output).toMatch(/validated in/);
    expect(result).not.toHaveProperty('code');
  }, 120_000);

  it('names this service in servers and every operation by a unique operationId', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: service.url })]);
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/health']!.get!.operationId).toBe('getHealth');
  });

  it('documents the 4xx answers with the shared Error schema', () => {
    expect(doc.components.schemas.Error).toMatchObject({ required: ['error', 'code', 'status'] });
    const errorRef = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
    for (const { path, op } of operations()) {
      if (path.includes('{')) expect(op.responses['404']?.content, path).toEqual(errorRef);
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      expect(op.responses['401'] !== undefined, path).toBe(!isPublic);
    }
    expect(doc.paths['/api/samples/']!.post!.responses['400']?.content).toEqual(errorRef);
  });

  it('marks as public exactly the routes that answer without an access token', async () => {
    for (const { path, method, op } of operations()) {
      if (method !== 'get' || path.includes('{')) continue;
      const res = await service.api(path);
      await res.arrayBuffer();
      const isPublic = Array.isArray(op.security) && op.security.length === 0;
      expect(res.status === 401, `${method} ${path}`).toBe(!isPublic);
    }
  });
});
