import { afterAll, describe, expect, it } from 'vitest';
import { runCliToEnd } from '../../helpers/cli';
import { startTestService } from '../../helpers/test-service';
import { tempDir } from '../../helpers/temp';
import { call } from './helpers';

describe('laneway users (CLI)', () => {
  const dir = tempDir('laneway-users-cli-');
  afterAll(() => dir.remove());

  it('creates the first account as an admin, refuses duplicates, and the service logs it in', async () => {
    const first = await runCliToEnd(
      [
        'users',
        'add',
        '--data',
        dir.path,
        '--username',
        'lab',
        '--email',
        'lab@lab.test',
        '--password-stdin',
        '--json',
      ],
      {},
      'a long password\n',
    );
    expect(first.code, first.stderr).toBe(0);
    const event = JSON.parse(first.stdout.trim()) as { user: Record<string, unknown> };
    expect(event.user).toMatchObject({ username: 'lab', is_admin: true, can_run_pipelines: true });

    const second = await runCliToEnd(
      ['users', 'add', '--data', dir.path, '--username', 'tech', '--email', 'tech@lab.test'],
      {
        LANEWAY_PASSWORD: 'another password',
      },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('Created tech\n');

    const dup = await runCliToEnd(['users', 'add', '--data', dir.path, '--username', 'TECH', '--email', 'x@lab.test'], {
      LANEWAY_PASSWORD: 'another password',
    });
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/username: already taken/);

    const usage = await runCliToEnd(['users', 'add', '--data', dir.path, '--username', 'z'], {});
    expect(usage.code).toBe(2);

    const service = await startTestService({ dataDir: dir.path });
    try {
      const login = await call(service, 'POST', '/api/login', {
        body: { username: 'tech', password: 'another password' },
      });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ is_admin: false, can_run_pipelines: false });
      const setup = await call(service, 'POST', '/api/setup', {
        body: { username: 'late', password: 'password123', email: 'late@lab.test', name: 'Late' },
      });
      expect(setup.status).toBe(409);
    } finally {
      await service.stop();
    }
    const list = await runCliToEnd(['users', 'list', '--data', dir.path]);
    expect(list.stdout).toMatch(/^lab\tlab@lab.test\tlab\tadmin,pipelines\ntech\t/);
    // Five CLI processes, each starting TypeScript through tsx: slow on a loaded two-core machine.
  }, 120_000);
});
