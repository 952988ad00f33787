/**
 * Whether an execution can be re-run or resumed by a caller, and why not: one answer used by
 * the commands (which refuse with it), the REST and GraphQL presenters (the dashboard shows it
 * beside a disabled button) and the OpenAPI description.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import type { AuthUser } from '../auth/authenticate';
import { accessTo, satisfies } from '../policy/policy';
import type { Catalogue } from '../pipelines/catalogue';
import type { ExecutionRow } from './executions.store';

export interface ActionState {
  allowed: boolean;
  /** Why not, in words for the user; null when allowed. */
  reason: string | null;
}

/** Engines that can continue a run on its kept work folder, and the flag that does it. */
export const RESUMING_ENGINES: Readonly<Record<string, string>> = {
  snakemake: 'Snakemake --rerun-incomplete',
  nextflow: 'Nextflow -resume',
};

/** The folder an execution runs in (work and out); kept after a failure for diagnosis and resume. */
export function executionFolder(ctx: ServiceContext, id: number): string {
  return join(ctx.config.dataDir, 'executions', String(id));
}

/** The work folder inside it, where engines keep their state. */
export function executionWorkDir(ctx: ServiceContext, id: number): string {
  return join(executionFolder(ctx, id), 'work');
}

const ok: ActionState = { allowed: true, reason: null };
const no = (reason: string): ActionState => ({ allowed: false, reason });

function versionState(catalogue: Catalogue, row: ExecutionRow): ActionState {
  const found = catalogue.version(row.version_id);
  if (!found) return no(`${row.pipeline_name} ${row.version_label} is no longer in the catalogue`);
  if (found.version.machineReason) return no(found.version.machineReason);
  return ok;
}

/** Both answers for one execution, as every execution body carries them. */
export function executionActions(ctx: ServiceContext, row: ExecutionRow, user: AuthUser) {
  const { catalogue } = ctx.parts.pipelines;
  return { rerun: rerunState(catalogue, row, user), resume: resumeState(ctx, catalogue, row, user) };
}

/** Can `user` start a new execution with this one's settings? (Needs view access, checked by the caller.) */
export function rerunState(catalogue: Catalogue, row: ExecutionRow, user: AuthUser): ActionState {
  if (!user.canRunPipelines) return no('Your account may not run pipelines');
  return versionState(catalogue, row);
}

/** Can `user` continue this execution where it stopped? */
export function resumeState(ctx: ServiceContext, catalogue: Catalogue, row: ExecutionRow, user: AuthUser): ActionState {
  if (!user.canRunPipelines) return no('Your account may not run pipelines');
  if (!satisfies(accessTo(ctx.db, 'execution', row.id, user), 'edit')) {
    return no('You need edit permission on this execution to resume it');
  }
  if (row.status === 'queued' || row.status === 'running') return no(`It is still ${row.status}`);
  if (row.status === 'completed') return no('It completed: there is nothing to resume (re-run it to start again)');
  if (row.status === 'cancelled') return no('It was cancelled, and cancelled runs keep no work folder: re-run it');
  const found = catalogue.version(row.version_id);
  if (found && !RESUMING_ENGINES[found.version.manifest.engine.kind]) {
    return no(
      `${row.pipeline_name} runs on a built-in engine, which cannot resume: re-run it (resume needs Snakemake or Nextflow)`,
    );
  }
  const version = versionState(catalogue, row);
  if (!version.allowed) return version;
  if (!existsSync(executionWorkDir(ctx, row.id))) return no('Its work folder is gone: re-run it instead');
  return ok;
}
