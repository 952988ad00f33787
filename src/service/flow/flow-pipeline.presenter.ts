/**
 * Pipelines in Flow's shapes (FLOW-WIRE.md P1-13 to P1-15): categories with one subcategory
 * each, versions newest first, and a version's `schema` made from its manifest's parameters
 * (files are Flow's `data` parameters; the samples to run on are one `csv` input that takes
 * samples). Laneway's pipelines are not all Nextflow: a version's `nextflow_versions` lists
 * its engine, the one value a run may name.
 */
import type { AuthUser } from '../auth/authenticate';
import {
  canRun,
  categoryOf,
  type Catalogue,
  type CataloguePipeline,
  type CatalogueVersion,
} from '../pipelines/catalogue';
import type { PipelineParameter } from '../../shared/pipelines/parameters';

/** The input that carries the samples of a run. */
export const SAMPLES_INPUT = 'samples';

/** The one `nextflow_version` a run of this version names. */
export const engineOf = (v: CatalogueVersion): string => v.manifest.engine_label;

function flowParam(p: PipelineParameter) {
  const type =
    p.type === 'file'
      ? 'data'
      : p.type === 'boolean'
        ? 'boolean'
        : ['integer', 'float'].includes(p.type)
          ? 'number'
          : 'string';
  return {
    type,
    description: p.description,
    required: p.required,
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p.choices ? { valid: p.choices } : {}),
    ...(p.validation ? { pattern: p.validation } : {}),
  };
}

/** The bare array of GET /pipelines. */
export function flowCategories(catalogue: Catalogue) {
  const byCategory = new Map<string, CataloguePipeline[]>();
  for (const p of catalogue.pipelines) {
    const name = categoryOf(p.manifest.category).name;
    byCategory.set(name, [...(byCategory.get(name) ?? []), p]);
  }
  return [...byCategory].map(([name, pipelines]) => ({
    name,
    description: '',
    subcategories: [
      {
        name,
        description: '',
        pipelines: pipelines.map((p) => ({
          id: String(p.id),
          name: p.manifest.name,
          description: p.manifest.description,
          execution_count: 0,
          is_nfcore: false,
          prepares_genome: false,
        })),
      },
    ],
  }));
}

function newestFirst(p: CataloguePipeline): CatalogueVersion[] {
  return [...p.versions].reverse();
}

/** GET /pipelines/{id}. */
export function flowPipeline(p: CataloguePipeline) {
  return {
    id: String(p.id),
    name: p.manifest.name,
    description: p.manifest.description,
    is_nfcore: false,
    prepares_genome: false,
    repo_url: null,
    repo_original_url: null,
    versions: newestFirst(p).map((v) => ({
      id: String(v.id),
      name: v.manifest.version,
      nextflow_versions: [engineOf(v)],
    })),
  };
}

/** GET /pipelines/versions/{id}. */
export function flowVersion(p: CataloguePipeline, v: CatalogueVersion, user: AuthUser) {
  const { can_run, reason } = canRun(v, user);
  const params: Record<string, unknown> = {};
  for (const param of v.manifest.parameters) params[param.name] = flowParam(param);
  params[SAMPLES_INPUT] = {
    type: 'csv',
    takes_samples: true,
    required: v.manifest.requirements.min_samples > 0,
    description: 'The samples to run on: one row per sample, {"sample": id}',
  };
  return {
    id: String(v.id),
    name: v.manifest.version,
    pipeline: { id: String(p.id), name: p.manifest.name },
    long_description: p.manifest.description,
    upstream_pipeline_versions: [],
    nextflow_versions: [engineOf(v)],
    can_run,
    reason,
    schema: { inputs: [{ name: 'Inputs', params }] },
  };
}
