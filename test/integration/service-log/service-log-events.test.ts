/**
 * Issue 20 item 6: the service log tells what happened, one JSON object per line
 * (docs/service-log.md): uploads, lanes, executions with who, what and how long, failed
 * sign-ins and limits hit. The real service, its real log file in its data folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openServiceLog, serviceLogPath } from '../../../src/service/service-log';
import { generateLane } from '../../helpers/fastq-generator';
import { tempDir } from '../../helpers/temp';
import { FIXTURE_MANIFESTS, startKit, type Kit } from '../pipelines/pipeline-kit';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

type Line = Record<string, unknown> & { time: string; level: string; event: string; msg: string };

function readLog(dataDir: string): Line[] {
  return readFileSync(serviceLogPath(dataDir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

describe('service.log: the events lab IT follows', () => {
  const dir = tempDir();
  const dataDir = join(dir.path, 'data');
  let kit: Kit;
  beforeAll(async () => {
    kit = await startKit(FIXTURE_MANIFESTS, { dataDir, log: openServiceLog(dataDir).log });
  });
  afterAll(async () => {
    await kit.stop();
    dir.remove();
  });

  it('logs a failed sign-in with the name tried, never the password', async () => {
    const res = await kit.api('/api/login', '', { body: { username: 'mallory', password: 'guess-123' } });
    expect(res.status).toBe(401);
    const line = readLog(dataDir).find((l) => l.event === 'signin.failed')!;
    expect(line).toMatchObject({ level: 'warn', username: 'mallory', path: '/api/login' });
    expect(JSON.stringify(line)).not.toContain('guess-123');
  });

  it('logs an upload completed, a lane created and demultiplexed, an execution queued, started and ended', async () => {
    await kit.upload(kit.adminToken, 'one.fastq', '@r1\nACGT\n+\nIIII\n');
    const gen = generateLane({ dir: dir.path, reads: 400, samples: 2, kind: 'header', readLength: 40, seed: 3 });
    const sheet = [
      'Sample Name,Barcode,Organism,Category',
      ...gen.barcodes.map((b) => `${b.name},${b.barcode},Homo sapiens,Total RNA`),
    ];
    writeFileSync(join(dir.path, 'sheet.csv'), `${sheet.join('\n')}\n`);
    const form = new FormData();
    form.append('name', 'log lane');
    form.append('annotation', new Blob([readFileSync(join(dir.path, 'sheet.csv'))]), 'sheet.csv');
    form.append('file', new Blob([new Uint8Array(readFileSync(gen.read1))]), 'lane.fastq');
    const posted = await kit.service.api('/api/upload/multiplexed', {
      method: 'POST',
      headers: { authorization: `Bearer ${kit.adminToken}` },
      body: form,
    });
    expect(posted.status).toBe(202);
    const laneId = ((await posted.json()) as { id: number }).id;
    for (;;) {
      const lane = await kit.api<{ status: string }>(`/api/lanes/${laneId}`, kit.adminToken);
      if (lane.body.status !== 'demultiplexing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const pipelines = (
      await kit.api<Array<{ name: string; versions: Array<{ id: number; version: string }> }>>(
        '/api/pipelines',
        kit.adminToken,
      )
    ).body;
    const steps = pipelines.find((p) => p.name === 'Test Steps')!.versions.find((v) => v.version === '2.0.0')!.id;
    const run = await kit.run(kit.adminToken, steps, { name: 'logged run', parameters: { steps: 2 } });
    expect(run.status).toBe(201);
    await kit.waitFor(kit.adminToken, run.body.id as number, ['completed', 'failed']);

    const lines = readLog(dataDir);
    for (const l of lines) {
      expect(Number.isFinite(Date.parse(l.time))).toBe(true);
      expect(['info', 'warn', 'error']).toContain(l.level);
      expect(typeof l.msg).toBe('string');
    }
    const by = (event: string) => lines.filter((l) => l.event === event);
    expect(by('upload.completed').find((l) => l.filename === 'one.fastq')).toMatchObject({ user: 'admin', bytes: 16 });
    expect(by('lane.created')).toEqual([
      expect.objectContaining({ lane_id: laneId, lane: 'log lane', user: 'admin', samples: 2 }),
    ]);
    const demuxed = by('lane.demultiplexed')[0]!;
    expect(demuxed).toMatchObject({ lane_id: laneId, user: 'admin', samples: 2, total_reads: 400 });
    expect(typeof demuxed.seconds).toBe('number');
    const id = run.body.id as number;
    const phases = lines.filter((l) => l.execution_id === id).map((l) => l.event);
    expect(phases).toEqual(['execution.queued', 'execution.started', 'execution.ended']);
    const ended = by('execution.ended').find((l) => l.execution_id === id)!;
    expect(ended).toMatchObject({
      user: 'admin',
      pipeline: 'Test Steps',
      version: '2.0.0',
      status: 'completed',
      execution: 'logged run',
    });
    expect(typeof ended.seconds).toBe('number');
  });
});
