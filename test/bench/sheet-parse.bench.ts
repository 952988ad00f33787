/**
 * Issue 11 part 2: while the worst sheets are parsed, the service keeps answering. /api/health
 * is asked back to back (one in flight) while a lane is posted with, in turn, the worst sheet the
 * reader accepts (20,000 rows x 25 columns, about 480,000 filled cells, near the cell bound,
 * written by openpyxl; its Barcode column is empty, so the lane rules refuse it row by row and
 * the time is the reader's) and each hostile sheet of issue 11 rows 2-3 (refused by a bound). The reference is the same
 * service's health p99 with nothing else to do, measured in the same run; the goal is a p99
 * under 50 ms whatever is being parsed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startService } from '../../src/service/server';
import {
  millionColumnCsv,
  sharedStringsBomb,
  xfdWorkbook,
  xfdWorkbookSmall,
  type HostileSheet,
} from '../helpers/hostile-sheets';
import { fastqBytes } from '../integration/data/upload-helpers';
import { tempDir } from '../helpers/temp';
import type { BenchFigure, Benchmark } from './harness';

const GOAL_P99_MS = 50;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Health latencies (ms) measured back to back until `until` settles. */
async function probe(pool: Pool, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t0 = process.hrtime.bigint();
    const res = await pool.request({ path: '/api/health', method: 'GET' });
    await res.body.text();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

export const benchmark: Benchmark = {
  name: 'sheet parsing vs health',
  async run(ctx) {
    const rows = ctx.quick ? 2_000 : 20_000;
    const worst = join(ctx.workDir, `lane-${rows}x25-no-barcodes.xlsx`);
    if (!existsSync(worst)) {
      ctx.log(`writing ${worst} with openpyxl`);
      execFileSync('/usr/bin/python3', [
        join(import.meta.dirname, '..', 'helpers', 'sheet-writers', 'large_workbook.py'),
        String(rows),
        '25',
        worst,
      ]);
    }
    const sheets: HostileSheet[] = [
      { name: `lane-${rows}x25-no-barcodes.xlsx`, path: worst, seen: 'the worst the reader accepts' },
      xfdWorkbook(),
      xfdWorkbookSmall(),
      sharedStringsBomb(),
      millionColumnCsv(),
    ];
    const dir = tempDir();
    const service = await startService({ dataDir: dir.path, log: () => {} });
    const json = { 'content-type': 'application/json' };
    const account = { username: 'bench', password: 'bench password 1' };
    await fetch(`${service.url}/api/setup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ ...account, email: 'bench@lab.example', name: 'Bench' }),
    });
    const login = await fetch(`${service.url}/api/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(account),
    });
    const token = ((await login.json()) as { token: string }).token;
    const pool = new Pool(service.url, { connections: 2 });
    const reads = new Blob([new Uint8Array(fastqBytes(20))]);
    const post = async (sheet: HostileSheet) => {
      const form = new FormData();
      form.append('name', 'bench lane');
      form.append('annotation', new Blob([new Uint8Array(readFileSync(sheet.path))]), sheet.name);
      form.append('file', reads, 'reads.fastq');
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${service.url}/api/upload/multiplexed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const body = (await res.json()) as { error?: string };
      return { status: res.status, error: body.error ?? '', ms: Number(process.hrtime.bigint() - t0) / 1e6 };
    };

    // Warm the parsing thread and the routes, then the reference: health with nothing else to do.
    await post(sheets[2]!);
    const idle = await probe(pool, new Promise((r) => setTimeout(r, ctx.quick ? 1_000 : 3_000)));
    const idleP99 = percentile(idle, 99);
    ctx.log(
      `idle: ${idle.length} health requests, p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${idleP99.toFixed(1)} ms`,
    );

    const figures: BenchFigure[] = [];
    const repeats = ctx.quick ? 1 : 3;
    for (const sheet of sheets) {
      const latencies: number[] = [];
      let answer = { status: 0, error: '', ms: 0 };
      for (let i = 0; i < repeats; i++) {
        const sent = post(sheet);
        latencies.push(...(await probe(pool, sent)));
        answer = await sent;
      }
      const p99 = percentile(latencies, 99);
      const met = p99 < GOAL_P99_MS ? 'met' : 'NOT met';
      ctx.log(
        `${sheet.name}: answered ${answer.status} in ${answer.ms.toFixed(0)} ms (${answer.error.slice(0, 120)}); ` +
          `health p99 ${p99.toFixed(1)} ms over ${latencies.length} requests (goal < ${GOAL_P99_MS} ms: ${met})`,
      );
      figures.push({
        name: `health p99 while parsing ${sheet.name}`,
        unit: 'ms',
        reference: { tool: 'same service idle, same run', value: idleP99 },
        ours: p99,
        higherIsBetter: false,
        notes: `goal p99 < ${GOAL_P99_MS} ms: ${met}; the lane answered ${answer.status} in ${answer.ms.toFixed(0)} ms; issue saw: ${sheet.seen}`,
      });
    }
    await pool.close();
    await service.close();
    dir.remove();
    return figures;
  },
};
