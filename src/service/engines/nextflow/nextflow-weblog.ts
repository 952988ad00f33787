/**
 * Nextflow's `-with-weblog` events mapped to process executions: each task (a process run on
 * one input, "ALIGN (sample1)") is one process execution; its trace's exit code, %cpu and peak
 * RSS become the process's exit code and resources.
 */
import type { NextflowWeblogEvent } from '../../../shared/service-api/executions';
import type { EngineSink } from '../engine';

/** One weblog event: Nextflow's shape, defined with the weblog route in the service API. */
export type WeblogEvent = NextflowWeblogEvent;
export type WeblogTrace = NonNullable<NextflowWeblogEvent['trace']>;

/** Nextflow's "no exit code yet" value. */
const NO_EXIT = 2147483647;

/** Translates one run's weblog events; remembers how the workflow ended. */
export class NextflowWeblog {
  ended: { success: boolean; error?: string } | null = null;

  constructor(private readonly sink: EngineSink) {}

  event(e: WeblogEvent): void {
    const t = e.trace;
    const name = t?.name ?? t?.process;
    switch (e.event) {
      case 'started':
        this.sink.log('nextflow', 'INFO', `Workflow ${e.runName ?? ''} started`.trim());
        return;
      case 'process_submitted':
        if (name) this.sink.process(name, 'queued');
        return;
      case 'process_started':
        if (name) this.sink.process(name, 'running');
        return;
      case 'process_completed': {
        if (!name || !t) return;
        const cpu = typeof t['%cpu'] === 'number' ? t['%cpu'] : null;
        const rss = typeof t.peak_rss === 'number' ? t.peak_rss : typeof t.rss === 'number' ? t.rss : null;
        if (cpu !== null || rss !== null) this.sink.resources(name, cpu ?? 0, (rss ?? 0) / 1024 ** 3);
        const exit = typeof t.exit === 'number' && t.exit !== NO_EXIT ? t.exit : undefined;
        const ok = t.status === 'COMPLETED' || t.status === 'CACHED';
        if (ok) this.sink.progress(name, 100);
        else
          this.sink.log(
            name,
            'ERROR',
            `Task ${name} ${t.status?.toLowerCase() ?? 'failed'}${exit !== undefined ? ` (exit ${exit})` : ''}`,
          );
        this.sink.process(name, ok ? 'completed' : 'failed', exit);
        return;
      }
      case 'error': {
        const message = e.metadata?.workflow?.errorMessage ?? 'Nextflow reported an error';
        this.sink.log('nextflow', 'ERROR', message);
        return;
      }
      case 'completed': {
        const success = e.metadata?.workflow?.success !== false;
        const error = e.metadata?.workflow?.errorMessage ?? undefined;
        this.ended = { success, ...(error ? { error } : {}) };
        this.sink.log(
          'nextflow',
          success ? 'INFO' : 'ERROR',
          success ? 'Workflow completed' : `Workflow failed: ${error ?? ''}`,
        );
        return;
      }
      default:
        return;
    }
  }
}

/**
 * Live weblog receivers by the run's secret (unique per execution), fed by the weblog route: a
 * part of the service (`ctx.parts.weblogReceivers`), handed to the engine with each job.
 */
export type WeblogReceivers = Map<string, { executionId: number; receive(e: WeblogEvent): void }>;
