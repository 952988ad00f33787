/**
 * The project's pinned redocly lints an OpenAPI document with the repository's rules
 * (redocly.yaml): what /api's and /flow/api's documents must pass.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const repo = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Writes `doc` to `file` and lints it; redocly's output, and its exit code when it failed. */
export async function redoclyLint(doc: unknown, file: string): Promise<{ output: string; code?: number }> {
  writeFileSync(file, JSON.stringify(doc));
  const result = await run(
    join(repo, 'node_modules/.bin/redocly'),
    ['lint', file, '--config', join(repo, 'redocly.yaml'), '--format', 'summary'],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  ).catch((err: { code?: number; stdout?: string; stderr?: string }) => err);
  const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`;
  return 'code' in result && result.code !== undefined ? { output, code: result.code } : { output };
}
