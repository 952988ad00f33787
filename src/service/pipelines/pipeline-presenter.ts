/** The JSON of pipelines and versions (REST) with every spec field. */
import type { PipelineVersion } from '../../shared/service-api/pipelines';
import type { AuthUser } from '../auth/authenticate';
import {
  canRun,
  categoryOf,
  latestVersion,
  type Catalogue,
  type CataloguePipeline,
  type CatalogueVersion,
} from './catalogue';

/** One version as the caller sees it: can_run and why not. */
export function presentVersion(p: CataloguePipeline, v: CatalogueVersion, user: AuthUser): PipelineVersion {
  const { can_run, reason } = canRun(v, user);
  return {
    id: v.id,
    version: v.manifest.version,
    is_latest: v.manifest.is_latest,
    can_run,
    reason,
    engine: v.manifest.engine_label,
    pipeline: { id: p.id, name: p.manifest.name },
    parameters: v.manifest.parameters,
    requirements: v.manifest.requirements,
    tools: v.manifest.tools,
    workflow_checksum: v.workflowChecksum,
  };
}

/** One pipeline with its versions; requirement lists are the latest version's. */
export function presentPipeline(catalogue: Catalogue, p: CataloguePipeline, user: AuthUser) {
  const latest = latestVersion(p);
  return {
    id: p.id,
    name: p.manifest.name,
    description: p.manifest.description,
    category: categoryOf(p.manifest.category),
    estimated_runtime: p.manifest.estimated_runtime,
    upstream_pipelines: p.manifest.upstream_pipelines.map((name) => ({
      id: catalogue.pipelineByName(name)?.id ?? null,
      name,
    })),
    required_data_types: latest.manifest.requirements.required_data_types,
    supported_organisms: latest.manifest.requirements.supported_organisms,
    versions: p.versions.map((v) => presentVersion(p, v, user)),
  };
}
