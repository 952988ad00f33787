/**
 * The real service over HTTP on an ephemeral port with real SQLite in a temp folder: what
 * every integration test talks to.
 */
import { startService, type RunningService, type StartOptions } from '../../src/service/server';
import { tempDir } from './temp';

export interface TestService extends RunningService {
  dataDir: string;
  /** The lines the service logged so far (a test waits on what it says, not on a clock). */
  logs: readonly string[];
  /** fetch against the service: `api('/api/health')`. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Marks the INTERNAL errors logged so far whose line includes `cause` as the ones a test's
   * injected fault was meant to cause, and returns how many; `stop` fails on any other.
   */
  expectInternal(cause: string): number;
  stop(): Promise<void>;
}

export async function startTestService(options: Partial<StartOptions> = {}): Promise<TestService> {
  // Answers are checked against their descriptors' response schemas (src/service/http/response-check.ts).
  process.env.LANEWAY_VALIDATE_RESPONSES = '1';
  const dir = options.dataDir ? null : tempDir('laneway-service-');
  const dataDir = options.dataDir ?? dir!.path;
  const logs: string[] = [];
  const expected = new Set<number>();
  const service = await startService({ log: (m) => logs.push(m), ...options, dataDir });
  return {
    ...service,
    dataDir,
    logs,
    api: (path, init) => fetch(`${service.url}${path}`, init),
    expectInternal(cause) {
      logs.forEach((l, i) => {
        if (l.startsWith('INTERNAL') && l.includes(cause)) expected.add(i);
      });
      return expected.size;
    },
    async stop() {
      await service.close();
      dir?.remove();
      // Any INTERNAL error logged during a test is a bug: fail loudly.
      const internal = logs.filter((l, i) => l.startsWith('INTERNAL') && !expected.has(i));
      if (internal.length) throw new Error(`The service logged internal errors:\n${internal.join('\n')}`);
    },
  };
}
