/** The notification for an execution that reached an end state. */
import type { Execution } from '../../service-client/types';

export function executionNotice(e: Execution): { tone: 'ok' | 'bad' | 'info'; title: string; body: string } | null {
  const pipeline = e.pipeline?.name ?? 'pipeline';
  if (e.status === 'completed') return { tone: 'ok', title: `Execution ${e.name} finished`, body: pipeline };
  if (e.status === 'failed') return { tone: 'bad', title: `Execution ${e.name} failed`, body: e.error || pipeline };
  if (e.status === 'cancelled') return { tone: 'info', title: `Execution ${e.name} was cancelled`, body: pipeline };
  return null;
}
