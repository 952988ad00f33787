/**
 * When an execution ends (completed, failed, cancelled, or interrupted by a stopped service),
 * its owner is told: a service notification (mailed too where SMTP is configured, see
 * notify) and a signed delivery to each active webhook of theirs that wants the event. A
 * group-owned execution tells the person who started it (the audit log's "ran" entry), as long
 * as they may still view it (not disabled, not removed from the group meanwhile).
 */
import { firstActorOf } from '../audit/audit.store';
import type { ServiceContext } from '../context';
import type { ExecutionEvents } from './execution-events';
import { getExecution, type ExecutionRow } from './executions.store';
import { userById } from '../auth/users.store';
import type { WebhookDeliverer } from '../webhooks/webhook-deliverer';
import { activeWebhooksOf, insertDeliveries } from '../webhooks/webhooks.store';
import { mayBeToldOf } from '../webhooks/webhook-recipient';
import { notify } from '../notifications/notifications.commands';
import { executionQc } from './qc-summary';
import type { QcSampleRow } from '../../shared/service-api/reports';

/** "after 2 min 5 s": how long it ran, in words (no ISO time in a sentence). */
function ranFor(row: ExecutionRow): string {
  const start = row.started ? Date.parse(row.started) : NaN;
  const end = row.finished ? Date.parse(row.finished) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return '';
  const s = Math.round((end - start) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const text = h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
  return ` after ${text}`;
}

/** The QC verdict in a sentence, naming the samples that failed or warned (empty without QC results). */
export function qcSentence(rows: QcSampleRow[]): string[] {
  const judged = rows.filter((r) => r.verdict !== null);
  if (judged.length === 0) return [];
  const failed = judged.filter((r) => r.verdict === 'fail');
  const warned = judged.filter((r) => r.verdict === 'warn');
  const why = (r: QcSampleRow, status: string) =>
    `${r.sample} (${r.modules
      .filter((m) => m.status === status)
      .map((m) => m.title)
      .join(', ')})`;
  const passed = judged.length - failed.length - warned.length;
  return [
    `Quality control: ${passed} of ${judged.length} sample${judged.length === 1 ? '' : 's'} passed every check.`,
    ...(failed.length ? [`Failed: ${failed.map((r) => why(r, 'fail')).join('; ')}.`] : []),
    ...(warned.length ? [`Warnings: ${warned.map((r) => why(r, 'warn')).join('; ')}.`] : []),
  ];
}

function recipientOf(ctx: ServiceContext, row: ExecutionRow): number | null {
  if (row.owner_user_id !== null) return row.owner_user_id;
  return firstActorOf(ctx.db, 'ran', 'execution', row.id);
}

/** The webhook payload: what ended and how (the same bytes on every retry, so signatures hold). */
export function executionPayload(row: ExecutionRow, event: string) {
  return {
    event,
    execution: {
      id: row.id,
      name: row.name,
      status: row.status,
      pipeline: { id: row.pipeline_id, name: row.pipeline_name },
      pipeline_version: { id: row.version_id, version: row.version_label },
      error: row.error,
      created: row.created,
      started: row.started,
      finished: row.finished,
      rerun_of: row.rerun_of,
      resumes: row.resumes,
    },
  };
}

function executionEnded(ctx: ServiceContext, deliverer: WebhookDeliverer, id: number): void {
  const row = getExecution(ctx.db, id);
  if (!row) return;
  const userId = recipientOf(ctx, row);
  const user = userId !== null ? userById(ctx.db, userId) : undefined;
  if (!user) return;
  // Only to someone who may still see the run (issue 24): the starter of a group-owned run may
  // have left the group, or been disabled, before it ended. No notice, mail or webhook then.
  if (!mayBeToldOf(ctx, user.id, row.id)) return;
  const what = `${row.pipeline_name} ${row.version_label}`;
  const outcome = { completed: 'completed', failed: 'failed', cancelled: 'was cancelled' }[row.status] ?? row.status;
  const qc = row.status === 'completed' ? executionQc(ctx, null, row.id) : [];
  const failing = qc.filter((r) => r.verdict === 'fail').map((r) => r.sample);
  notify(ctx, {
    userId: user.id,
    email: user.email,
    kind: 'execution_ended',
    subject: `Execution ${row.name} ${outcome}${failing.length ? `: QC failed for ${failing.join(', ')}` : ''}`,
    body: [
      `Your execution "${row.name}" (${what}, id ${row.id}) ${outcome}${ranFor(row)}.`,
      ...(row.error ? [`Reason: ${row.error}`] : []),
      ...qcSentence(qc),
      'Open it in Laneway under Executions to see its logs and outputs.',
    ].join('\n'),
    data: {
      execution_id: row.id,
      status: row.status,
      pipeline: row.pipeline_name,
      version: row.version_label,
      error: row.error,
      ...(qc.length ? { qc_failed: failing } : {}),
    },
  });
  const event = `execution.${row.status}`;
  const hooks = activeWebhooksOf(ctx.db, user.id).filter((h) => (JSON.parse(h.events) as string[]).includes(event));
  if (!hooks.length) return;
  const payload = JSON.stringify(executionPayload(row, event));
  const created = new Date(ctx.clock.now()).toISOString();
  const ids = insertDeliveries(
    ctx.db,
    hooks.map((h) => h.id),
    event,
    payload,
    created,
  );
  for (const d of ids) deliverer.deliver(d);
}

/** Tells owners about every execution that ends from now on. */
export function watchExecutionEnds(ctx: ServiceContext, events: ExecutionEvents): void {
  const deliverer = ctx.parts.webhooks;
  events.onEnded((id) => {
    try {
      executionEnded(ctx, deliverer, id);
    } catch (err) {
      ctx.log(`INTERNAL execution ${id}: owner not told of its end: ${(err as Error).stack ?? String(err)}`);
    }
  });
}
