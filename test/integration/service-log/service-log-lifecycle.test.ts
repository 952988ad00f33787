/**
 * Issue 20 item 6: how the service last stopped (clean or crash, from its marker file) is the
 * first thing its start line says; the log rotates; `laneway serve --host 0.0.0.0` prints an
 * address other computers can reach, not 127.0.0.1.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  appendServiceLogLine,
  rotateServiceLog,
  serviceLogPath,
  serviceLogWriter,
} from '../../../src/node/service-log-line';
import { reachableUrls } from '../../../src/service/reachable-address';
import { runCli } from '../../helpers/cli';
import { startServeProcess } from '../../helpers/serve-process';
import { tempDir } from '../../helpers/temp';

vi.setConfig({ testTimeout: 180_000 });

type Line = Record<string, unknown> & { event: string; level: string };
const lines = (dataDir: string) =>
  readFileSync(serviceLogPath(dataDir), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const starts = (dataDir: string) => lines(dataDir).filter((l) => l.event === 'service.started');

describe('service.log: starts, stops and crashes', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('says first start, then a clean stop, then a crash (SIGKILL) at the next start', async () => {
    const dataDir = join(dir.path, 'data');
    let serve = await startServeProcess({ dataDir, keepData: true });
    await serve.stop();
    serve = await startServeProcess({ dataDir, keepData: true });
    serve.cli.child.kill('SIGKILL');
    await serve.cli.exit;
    serve = await startServeProcess({ dataDir, keepData: true });
    await serve.stop();

    const s = starts(dataDir);
    expect(s.map((l) => (l.previous_stop as { kind: string }).kind)).toEqual(['first-start', 'clean', 'crash']);
    expect(s[0]).toMatchObject({ level: 'info', data_dir: dataDir, version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(s[1]!.previous_stop).toMatchObject({ reason: 'SIGTERM' });
    expect(s[2]).toMatchObject({ level: 'warn', msg: expect.stringContaining('did not stop cleanly') });
    expect(lines(dataDir).filter((l) => l.event === 'service.stopped')).toHaveLength(2);
  });

  it('rotates past its size, keeping five older files', () => {
    const dataDir = join(dir.path, 'rotating');
    const write = serviceLogWriter(dataDir, 200);
    for (let i = 0; i < 40; i++) write('info', 'note', { msg: `line ${i} ${'x'.repeat(60)}` });
    const path = serviceLogPath(dataDir);
    for (let n = 1; n <= 5; n++) expect(existsSync(`${path}.${n}`)).toBe(true);
    expect(existsSync(`${path}.6`)).toBe(false);
    expect(readFileSync(path, 'utf8')).toContain('line 39');
    // Every file still holds whole JSON lines.
    for (const f of [path, `${path}.1`, `${path}.5`])
      for (const l of readFileSync(f, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(l)).not.toThrow();
  });

  it('keeps its file open, and after another writer rotates or removes it writes to the new file, losing no line', () => {
    const dataDir = join(dir.path, 'shared');
    const path = serviceLogPath(dataDir);
    const write = serviceLogWriter(dataDir);
    const read = (f: string) =>
      existsSync(f)
        ? readFileSync(f, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as { msg: string })
            .map((l) => l.msg)
        : [];
    for (let i = 0; i < 3; i++) write('info', 'note', { msg: `a${i}` });
    // The desktop core's supervisor appends to the same file, then rotates it as its writer does.
    appendServiceLogLine(dataDir, 'supervisor.restarted', 'warn', { msg: 'core' });
    rotateServiceLog(path);
    for (let i = 0; i < 3; i++) write('info', 'note', { msg: `b${i}` });
    expect(read(`${path}.1`)).toEqual(['a0', 'a1', 'a2', 'core']);
    expect(read(path)).toEqual(['b0', 'b1', 'b2']);
    // Removed under it (an administrator clearing logs): a new file again.
    rmSync(path);
    write('info', 'note', { msg: 'c0' });
    appendServiceLogLine(dataDir, 'supervisor.restarted', 'warn', { msg: 'core2' });
    write('info', 'note', { msg: 'c1' });
    expect(read(path)).toEqual(['c0', 'core2', 'c1']);
    write.close();
    // Closed, it opens the file again at its next line.
    write('info', 'note', { msg: 'd0' });
    expect(read(path)).toEqual(['c0', 'core2', 'c1', 'd0']);
    write.close();
  });

  it('lists the addresses of a wildcard host before loopback, and only loopback for 127.0.0.1', () => {
    const machine = {
      hostname: () => 'seqserver',
      interfaces: () =>
        ({
          lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
          eth0: [
            { address: '10.2.3.4', family: 'IPv4', internal: false },
            { address: 'fe80::1', family: 'IPv6', internal: false },
          ],
        }) as unknown as ReturnType<typeof networkInterfaces>,
    };
    expect(reachableUrls('0.0.0.0', 'http://127.0.0.1:8080', machine)).toEqual([
      'http://10.2.3.4:8080',
      'http://seqserver:8080',
      'http://127.0.0.1:8080',
    ]);
    expect(reachableUrls('127.0.0.1', 'http://127.0.0.1:8080', machine)).toEqual(['http://127.0.0.1:8080']);
  });

  it('`laneway serve --host 0.0.0.0` prints a reachable address first', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4');
    const p = runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data', join(dir.path, 'wild')]);
    const first = await new Promise<string>((resolve) => {
      const check = () => {
        const m = /listening on (http:\/\/\S+)/.exec(p.stdout());
        if (m) resolve(m[1]!);
        else setTimeout(check, 50);
      };
      check();
    });
    try {
      if (external) expect(first).toContain(external.address);
      expect(first).not.toContain('127.0.0.1');
      expect((await fetch(`${first}/api/health`)).status).toBe(200);
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
    }
  });
});
