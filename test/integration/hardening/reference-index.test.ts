/**
 * Issue 24 item 6: "Reference index builds escape cancel, time_limit and process hygiene: ...
 * a 6 MB .fa.gz inflating to 2 GiB is accepted and indexed for 205 s; the failure message shows
 * the service's absolute data path". A build is now part of the run that asked: its tools are
 * a process group the run's signal ends, and a FASTA may inflate only so far. Real samtools and
 * minimap2 over a real service's stored reference; the bound is lowered for the test.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { groupAlive } from '../../../src/service/engines/process-tree';
import { referenceIndex } from '../../../src/service/references/reference-index';
import { startTestService, type TestService } from '../../helpers/test-service';
import { postChunk } from '../data/upload-helpers';
import { setupAdmin, type Session } from '../identity/helpers';

vi.setConfig({ testTimeout: 120_000 });

/** A FASTA of `n` sequences of `len` random bases (a generated genome, no file copied). */
function fasta(n: number, len: number, seed: number): Buffer {
  let x = seed;
  const base = () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return 'ACGT'[x >>> 30];
  };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    for (let j = 0; j < len; j++) s += base();
    out.push(`>chr${i + 1}\n${s.replace(/(.{60})/g, '$1\n')}\n`);
  }
  return Buffer.from(out.join(''));
}

describe('reference index builds belong to their run (issue 24 item 6)', () => {
  let service: TestService;
  let admin: Session;
  const upload = async (name: string, bytes: Buffer) => {
    const r = await postChunk(
      service.url,
      admin.token,
      { filename: name, chunk: 0, total_chunks: 1, file_id: name },
      bytes,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  };
  beforeAll(async () => {
    service = await startTestService();
    admin = await setupAdmin(service, 'admin');
  });
  afterAll(async () => {
    delete process.env.LANEWAY_MAX_REFERENCE_BYTES;
    await service.stop();
  });

  it('refuses a FASTA that inflates past the bound, naming no server path', async () => {
    // Highly compressible: a small .fa.gz that inflates to 4 MiB.
    const bomb = gzipSync(Buffer.from(`>chr1\n${'A'.repeat(60).concat('\n').repeat(70_000)}`));
    const id = await upload('bomb.fa.gz', bomb);
    process.env.LANEWAY_MAX_REFERENCE_BYTES = String(1024 * 1024);
    const err = (await referenceIndex(service.ctx, id).catch((e: unknown) => e)) as Error;
    delete process.env.LANEWAY_MAX_REFERENCE_BYTES;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/inflates to more than/);
    expect(err.message).not.toContain(service.dataDir);
  });

  it("the run's stop ends the build's process group at once", async () => {
    const id = await upload('big.fa', fasta(4, 1_500_000, 7));
    const stop = new AbortController();
    const groups: number[] = [];
    const build = referenceIndex(service.ctx, id, ['faidx', 'minimap2'], {
      signal: stop.signal,
      spawned: (pgid) => {
        groups.push(pgid);
        // Stop while minimap2 (the second tool) is indexing.
        if (groups.length === 2) stop.abort(new Error('Cancelled by admin'));
      },
    });
    await expect(build).rejects.toThrow('Cancelled by admin');
    expect(groups).toHaveLength(2);
    // Ended as a group: nothing of minimap2 is left behind.
    await vi.waitFor(() => expect(groupAlive(groups[1]!)).toBe(false), { timeout: 10_000 });
    // A later run builds it whole.
    const index = await referenceIndex(service.ctx, id, ['faidx', 'minimap2']);
    expect(index.built).toBe(true);
  });
});
