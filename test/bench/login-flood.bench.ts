/**
 * Issue 24 item 2: file I/O under a flood of bogus sign-ins. `laneway serve` runs as its own
 * process; we time a 1 MB upload (one chunk) and a 4 MB download, idle and then while 32 logins
 * with new made-up usernames are in flight at all times (the attack of the issue: no account
 * needed, every name new). Before, each attempt cost a scrypt on libuv's threadpool, which file
 * reads and writes share, and a 1 MB upload went from 45 ms to 6-7.7 s. Goal: within 2x of idle.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import { startServeProcess } from '../helpers/serve-process';
import type { Benchmark } from './harness';

const MB = 1024 * 1024;

async function json(url: string, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function upload(url: string, token: string, id: string, bytes: Buffer): Promise<number> {
  const form = new FormData();
  form.append('filename', `${id}.fastq`);
  form.append('chunk', '0');
  form.append('total_chunks', '1');
  form.append('file_id', id);
  form.append('file', new Blob([new Uint8Array(bytes)]), `${id}.fastq`);
  const res = await fetch(`${url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = (await res.json()) as { id?: number };
  if (res.status !== 200 || !body.id) throw new Error(`upload answered ${res.status}`);
  return body.id;
}

function fastq(size: number, seed: number): Buffer {
  const record = (i: number) => `@r${seed}.${i}\n${'ACGT'.repeat(25)}\n+\n${'I'.repeat(100)}\n`;
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < size; i++) {
    const r = record(i);
    parts.push(r);
    n += r.length;
  }
  return Buffer.from(parts.join('')).subarray(0, size);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export const benchmark: Benchmark = {
  name: 'file I/O under a sign-in flood',
  async run(ctx) {
    const rounds = ctx.quick ? 5 : 15;
    const serve = await startServeProcess();
    const url = serve.url;
    try {
      await json(url, '/api/setup', { username: 'admin', password: 'correct horse', email: 'a@lab.test', name: 'A' });
      const token = (await json(url, '/api/login', { username: 'admin', password: 'correct horse' })).token as string;
      const big = await upload(url, token, 'download-me', fastq(4 * MB, 1));
      let n = 0;
      const measure = async (label: string) => {
        const up: number[] = [];
        const down: number[] = [];
        for (let i = 0; i < rounds; i++) {
          let t = performance.now();
          await upload(url, token, `${label}-${n++}`, fastq(MB, n));
          up.push(performance.now() - t);
          t = performance.now();
          const res = await fetch(`${url}/api/data/${big}/download`, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          down.push(performance.now() - t);
        }
        return { up: median(up), down: median(down) };
      };
      await measure('warm');
      const idle = await measure('idle');
      // The flood: 32 logins in flight at all times, each with a new unknown username.
      let flooding = true;
      let attempts = 0;
      const statuses = new Map<number, number>();
      const agent = new Agent({ connections: 64 });
      const flooder = async () => {
        while (flooding) {
          const res = await fetch(`${url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: `nobody-${randomBytes(6).toString('hex')}`, password: 'guess' }),
            dispatcher: agent,
          } as RequestInit);
          await res.arrayBuffer();
          attempts++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      };
      const flood = Array.from({ length: 32 }, flooder);
      // Measure once the flood is under way (the first answers are in).
      while (attempts < 64) await new Promise((r) => setTimeout(r, 10));
      const t0 = performance.now();
      const before = attempts;
      const loaded = await measure('flood');
      const floodSeconds = (performance.now() - t0) / 1000;
      flooding = false;
      await Promise.all(flood);
      await agent.close();
      const answers = [...statuses].map(([s, c]) => `${c}x ${s}`).join(', ');
      ctx.log(`idle: upload ${idle.up.toFixed(0)} ms, download ${idle.down.toFixed(0)} ms`);
      ctx.log(`flood: upload ${loaded.up.toFixed(0)} ms, download ${loaded.down.toFixed(0)} ms`);
      ctx.log(`${attempts - before} bogus logins while measuring ${floodSeconds.toFixed(1)} s (all: ${answers})`);
      const notes = `median of ${rounds}; 32 logins with new unknown usernames in flight`;
      return [
        {
          name: '1 MB upload during a login flood',
          unit: 'ms',
          reference: { tool: 'the same upload, idle', value: idle.up },
          ours: loaded.up,
          higherIsBetter: false,
          goal: 0.5,
          notes,
        },
        {
          name: '4 MB download during a login flood',
          unit: 'ms',
          reference: { tool: 'the same download, idle', value: idle.down },
          ours: loaded.down,
          higherIsBetter: false,
          goal: 0.5,
          notes,
        },
      ];
    } finally {
      await serve.stop();
    }
  },
};
