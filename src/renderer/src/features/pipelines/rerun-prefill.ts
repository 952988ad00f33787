/**
 * Re-run opens the launch form filled in from the execution it re-runs (issue 20 item 5): its
 * name, samples, parameters and resources, to change or send as they are. The form then sends
 * to `POST /api/executions/{id}/rerun`, so the new execution names the one it re-runs.
 */
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import type { RerunBody, RunBody } from '../../../../shared/service-api/pipelines';
import type { Execution } from '../../service-client/types';
import type { RawValue } from '../../ui/parameter-field';
import { DEFAULT_OPTIONS, type LaunchOptions } from './launch-options';

/** The form's control state for a value the execution ran with. */
export function rawFromValue(p: PipelineParameter, value: unknown): RawValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (p.type === 'boolean') return value === true;
  if (Array.isArray(value)) return value.map(String).join('\n');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The name proposed for a re-run: "QC (re-run)", then "QC (re-run 2)" for a re-run of that one,
 * and so on (a re-run of a re-run read "QC (re-run) (re-run)").
 */
export function rerunName(name: string): string {
  const m = /^(.*) \(re-run(?: (\d+))?\)$/.exec(name);
  if (!m) return `${name} (re-run)`;
  return `${m[1]} (re-run ${m[2] ? Number(m[2]) + 1 : 2})`;
}

/** The launch options (priority, resources, test mode) the execution ran with. */
export function optionsFromExecution(e: Execution): LaunchOptions {
  const r = e.resources ?? {};
  const priority = e.priority === 'high' || e.priority === 'low' ? e.priority : 'normal';
  return {
    ...DEFAULT_OPTIONS,
    priority,
    cpus: r.cpus ? String(r.cpus) : '',
    memory: r.memory_gb ? `${r.memory_gb}G` : '',
    queue: r.queue ?? '',
    time_limit: r.time_limit ? `${r.time_limit}s` : '',
    test_mode: e.test_mode === true,
  };
}

/** The body of the re-run: everything the form shows, without a chain (a re-run keeps its own). */
export function rerunBody(body: RunBody): RerunBody {
  const { upstream_execution: _chain, version: _version, ...rest } = body;
  return rest;
}
