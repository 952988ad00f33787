/**
 * A lane sheet uploaded on the Flow mount waits for its reads in the database (migration 036),
 * not in memory: flowbio uploads the sheet, then the reads, in separate requests, and a restart
 * of the service between the two keeps the sheet (its bytes and its verdict).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeWarningLane } from '../../helpers/flow/flow-fixtures';
import { uploadInChunks, flowToken } from '../../helpers/flow/flow-wire-client';
import { tempDir } from '../../helpers/temp';
import { startTestService, type TestService } from '../../helpers/test-service';
import { call, login, setupAdmin } from '../identity/helpers';

interface Lane {
  name: string;
  status: string;
  paired: boolean;
  samples: Array<{ name: string; reads: number | null }>;
}

function flowLogin(service: TestService): Promise<string> {
  return flowToken(`${service.url}/flow/api`);
}

describe('Flow pending sheets across a restart', () => {
  const dir = tempDir('laneway-flow-restart-');
  const data = tempDir('laneway-flow-restart-data-');
  const running: TestService[] = [];
  afterAll(async () => {
    for (const s of running) await s.stop().catch(() => undefined);
    dir.remove();
    data.remove();
  });

  it('links the reads sent after a restart to the sheet sent before it', async () => {
    const lane = writeWarningLane(dir.path, 'kept', 'K', 23);
    const first = await startTestService({ dataDir: data.path });
    running.push(first);
    await setupAdmin(first);
    const accepted = await uploadInChunks(
      `${first.url}/flow/api`,
      '/upload/annotation',
      await flowLogin(first),
      'kept.csv',
      readFileSync(lane.sheet),
      100,
      { ignore_warnings: 'true' },
    );
    expect(accepted.status, accepted.text).toBe(200);
    await first.stop();
    running.pop();

    const second = await startTestService({ dataDir: data.path });
    running.push(second);
    const base = `${second.url}/flow/api`;
    const token = await flowLogin(second);
    const r1 = await uploadInChunks(base, '/upload/multiplexed', token, 'kept_R1.fastq', readFileSync(lane.r1), 4000);
    expect(r1.status, r1.text).toBe(200);
    const r2 = await uploadInChunks(base, '/upload/multiplexed', token, 'kept_R2.fastq', readFileSync(lane.r2), 4000, {
      reads1: String(r1.body.id),
    });
    expect(r2.status, r2.text).toBe(200);
    const admin = await login(second, 'admin', 'correct horse');
    for (;;) {
      const lanes = (await call(second, 'GET', '/api/lanes/', { token: admin.token })).body.items as unknown as Lane[];
      const done = lanes.find((l) => l.name === 'kept' && l.status !== 'demultiplexing');
      if (done) {
        expect(done.status).toBe('complete');
        expect(done.paired).toBe(true);
        expect(Object.fromEntries(done.samples.map((s) => [s.name, s.reads]))).toEqual(lane.expected);
        break;
      }
      await new Promise((w) => setTimeout(w, 200));
    }
  });
});
