/**
 * Viewing an HTML report (issue 20 item 4): a view ticket for an HTML record the caller may
 * read, served under a sandboxing, connection-less policy; the spec's error bodies for what is
 * refused (someone else's record, a record that is not HTML, a made-up or expired ticket). Time
 * is the test's clock.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataRecord } from '../../../src/service/data/data.commands';
import type { Clock } from '../../../src/service/context';
import { startTestService, type TestService } from '../../helpers/test-service';
import { addUser, call, setupAdmin, type Session } from '../identity/helpers';
import { fastqBytes, uploadWhole } from './upload-helpers';

describe('report view tickets', () => {
  let now = Date.parse('2026-03-01T00:00:00Z');
  const clock: Clock = { now: () => now };
  let service: TestService;
  let alice: Session;
  let bob: Session;
  let html: number;
  let reads: number;
  const page = Buffer.from('<!DOCTYPE html><html><body><h1>QC</h1><script>1</script></body></html>');
  // As the app asks (its client sends a JSON body, here an empty one).
  const ask = (s: Session, id: number) => call(service, 'POST', `/api/data/${id}/view`, { token: s.token, body: {} });
  beforeAll(async () => {
    service = await startTestService({ clock });
    alice = await setupAdmin(service, 'alice');
    bob = await addUser(service, alice, 'bob');
    // An HTML report as a run leaves one (uploads take no HTML): a record of alice's, made by the service.
    const file = join(mkdtempSync(join(tmpdir(), 'view-')), 'report.html');
    writeFileSync(file, page);
    html = createDataRecord(service.ctx, {
      sourceFile: file,
      filename: 'report.html',
      dataType: 'html',
      owner: { owner_user_id: alice.id, owner_group_id: null },
      source: 'report',
    }).id;
    reads = (await uploadWhole(service.url, alice.token, 'reads.fastq', fastqBytes(10))).body.id as number;
  });
  afterAll(async () => {
    await service.stop();
  });

  it('serves an HTML record by ticket, sandboxed with no connections, without a token', async () => {
    const res = await ask(alice, html);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ticket = res.body as unknown as { url: string; expires: string };
    expect(ticket.url).toMatch(/^\/api\/data\/view\/[A-Za-z0-9_-]{32}$/);
    expect(Date.parse(ticket.expires) - now).toBe(5 * 60_000);
    const view = await service.api(ticket.url);
    expect(view.status).toBe(200);
    expect(view.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = view.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^sandbox allow-scripts;/);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(Buffer.from(await view.arrayBuffer()).equals(page)).toBe(true);
  });

  it("refuses someone else's record, a record that is not HTML, and an unknown or expired ticket", async () => {
    const other = await ask(bob, html);
    expect([403, 404]).toContain(other.status);
    expect(other.body).toMatchObject({ code: expect.stringMatching(/PERMISSION_DENIED|NOT_FOUND/) });
    const fastq = await ask(alice, reads);
    expect(fastq.status).toBe(409);
    expect(fastq.body).toMatchObject({
      code: 'CONFLICT',
      error: expect.stringContaining('not an HTML report'),
    });
    const bad = await service.api('/api/data/view/not-a-ticket-at-all-0123456789');
    expect(bad.status).toBe(404);
    expect(await bad.json()).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const malformed = await service.api('/api/data/view/%3Cscript%3E');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'VALIDATION_ERROR' });

    const { url } = (await ask(alice, html)).body as unknown as { url: string };
    now += 5 * 60_000 + 1;
    const expired = await service.api(url);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toMatchObject({ error: expect.stringContaining('expired') });
  });
});
