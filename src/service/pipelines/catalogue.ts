/**
 * The pipeline catalogue: manifests loaded and validated at start, given stable ids in the
 * database, and the machine's tools checked once. Answers what exists and whether a version
 * can run here for a given caller.
 */
import { existsSync } from 'node:fs';
import type { Db } from '../db/database';
import { workerCommand } from '../engines/builtin-engine';
import {
  CATEGORIES,
  loadManifests,
  type ManifestProblem,
  type ManifestVersion,
  type PipelineManifest,
} from './manifest';
import { checkTools } from '../engines/tool-check';
import { registerPipeline, registerVersion } from './pipelines.store';
import { ownWorkflow } from './workflow-copies';
import { resourcesDir } from '../../node/resources-dir';

export interface CataloguePipeline {
  id: number;
  manifest: PipelineManifest;
  versions: CatalogueVersion[];
}

export interface CatalogueVersion {
  id: number;
  pipelineId: number;
  manifest: ManifestVersion;
  /** Why this machine cannot run the version, or null when it can. */
  machineReason: string | null;
  /** The version's own copy of its workflow (what runs), for workflow engines with a local file. */
  workflowPath: string | null;
  /** sha256 of that copy's folder, stored at first registration. */
  workflowChecksum: string | null;
}

export interface Catalogue {
  pipelines: CataloguePipeline[];
  problems: ManifestProblem[];
  /** Things worth logging that do not skip a manifest (a shipped workflow changed). */
  notes: string[];
  pipeline(id: number): CataloguePipeline | undefined;
  pipelineByName(name: string): CataloguePipeline | undefined;
  version(id: number): { pipeline: CataloguePipeline; version: CatalogueVersion } | undefined;
}

/** The shipped manifests; LANEWAY_PIPELINES_DIR points a lab (or a test) at its own folder. */
export function defaultManifestDir(): string {
  return process.env.LANEWAY_PIPELINES_DIR ?? resourcesDir('pipelines');
}

/** Category id and name: ids follow the fixed order of the spec's categories. */
export function categoryOf(name: string): { id: number; name: string } {
  return { id: CATEGORIES.indexOf(name as (typeof CATEGORIES)[number]) + 1, name };
}

function enginePrograms(v: ManifestVersion): string[] {
  const engine = v.engine.kind === 'snakemake' ? ['snakemake'] : v.engine.kind === 'nextflow' ? ['nextflow'] : [];
  return [...engine, ...v.tools];
}

function machineReason(v: ManifestVersion, tools: Map<string, boolean>): string | null {
  const missing = enginePrograms(v).filter((p) => !tools.get(p));
  if (missing.length) return `This machine lacks ${missing.join(', ')} (not found on PATH)`;
  if (v.engine.kind === 'builtin' || v.engine.kind === 'node') {
    try {
      workerCommand(v.engine, []);
    } catch {
      return `This installation lacks the ${v.engine_label} engine`;
    }
  }
  if (v.engine.kind === 'snakemake' && !existsSync(v.engine.workflow)) {
    return `The workflow file ${v.engine.workflow} is missing`;
  }
  return null;
}

/** Loads the manifests in `dir`, assigns stable ids, and checks the tools they need. */
function localWorkflow(v: ManifestVersion): string | null {
  if (v.engine.kind === 'snakemake') return v.engine.workflow;
  if (v.engine.kind === 'nextflow' && v.engine.workflow.startsWith('/')) return v.engine.workflow;
  return null;
}

/**
 * Loads the manifests in `dir`, assigns stable ids, gives each workflow version its own copy
 * of the workflow under `dataDir` and checks the tools they need.
 */
export function loadCatalogue(db: Db, dir: string, dataDir: string, path?: string): Catalogue {
  const notes: string[] = [];
  const { manifests, problems } = loadManifests(dir);
  const tools = checkTools(
    manifests.flatMap((m) => m.versions.flatMap(enginePrograms)),
    path,
  );
  const pipelineId = registerPipeline(db);
  const versionId = registerVersion(db);
  const pipelines = db.transaction(() =>
    manifests.map((m): CataloguePipeline => {
      const id = pipelineId(m.name);
      const versions = m.versions.map((v): CatalogueVersion => {
        const vid = versionId(id, v.version);
        let reason = machineReason(v, tools);
        const source = localWorkflow(v);
        let owned = null;
        if (source && existsSync(source)) {
          owned = ownWorkflow(db, dataDir, vid, source, `${m.name} ${v.version}`);
          if (owned.sourceChanged) notes.push(owned.sourceChanged);
          reason = reason ?? owned.problem;
        }
        return {
          id: vid,
          pipelineId: id,
          manifest: v,
          machineReason: reason,
          workflowPath: owned?.path ?? null,
          workflowChecksum: owned?.checksum ?? null,
        };
      });
      return { id, manifest: m, versions };
    }),
  )();
  const byVersion = new Map<number, { pipeline: CataloguePipeline; version: CatalogueVersion }>();
  for (const p of pipelines) for (const v of p.versions) byVersion.set(v.id, { pipeline: p, version: v });
  return {
    pipelines,
    problems,
    notes,
    pipeline: (id) => pipelines.find((p) => p.id === id),
    pipelineByName: (name) => pipelines.find((p) => p.manifest.name.toLowerCase() === name.toLowerCase()),
    version: (id) => byVersion.get(id),
  };
}

/** Whether `user` may run `version` here; the reason when not. */
export function canRun(
  version: CatalogueVersion,
  user: { canRunPipelines: boolean },
): { can_run: boolean; reason: string | null } {
  if (!user.canRunPipelines) return { can_run: false, reason: 'Your account may not run pipelines' };
  if (version.machineReason) return { can_run: false, reason: version.machineReason };
  return { can_run: true, reason: null };
}

/** The latest version of a pipeline (is_latest), for runs by pipeline without a version. */
export function latestVersion(p: CataloguePipeline): CatalogueVersion {
  return p.versions.find((v) => v.manifest.is_latest) ?? p.versions[p.versions.length - 1]!;
}
