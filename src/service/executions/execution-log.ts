/**
 * The service log's lines for an execution's life (docs/service-log.md): queued, started and
 * ended, each naming who ran what, and how long it waited or ran.
 */
import type { ServiceContext } from '../context';
import { userById } from '../auth/users.store';
import { secondsSince } from '../service-log';
import type { ExecutionRow } from './executions.store';

export type ExecutionPhase = 'queued' | 'started' | 'ended';

/** Logs one phase of execution `row` (read after the change). */
export function logExecution(ctx: ServiceContext, row: ExecutionRow, phase: ExecutionPhase): void {
  const user = row.owner_user_id !== null ? (userById(ctx.db, row.owner_user_id)?.username ?? null) : null;
  const what = `${row.pipeline_name} ${row.version_label}`;
  const fields = {
    user,
    execution_id: row.id,
    execution: row.name,
    pipeline: row.pipeline_name,
    version: row.version_label,
  };
  if (phase === 'queued') {
    ctx.log(`execution ${row.id} queued: ${row.name} (${what}) by ${user ?? '?'}`, {
      event: 'execution.queued',
      ...fields,
    });
  } else if (phase === 'started') {
    const waited = secondsSince(ctx, row.created);
    ctx.log(`execution ${row.id} started: ${row.name} (${what}) by ${user ?? '?'} after ${waited ?? '?'} s queued`, {
      event: 'execution.started',
      ...fields,
      queued_seconds: waited,
    });
  } else {
    const ran = secondsSince(ctx, row.started ?? row.created);
    ctx.log(
      `execution ${row.id} ${row.status}: ${row.name} (${what}) by ${user ?? '?'} in ${ran ?? '?'} s${row.error ? `: ${row.error}` : ''}`,
      {
        event: 'execution.ended',
        level: row.status === 'failed' ? 'warn' : 'info',
        ...fields,
        status: row.status,
        seconds: ran,
        error: row.error ?? null,
      },
    );
  }
}
