/** The JSON of pipelines and versions (REST) with every spec field, and their schemas. */
import type { AuthUser } from '../identity/authenticate';
import {
  canRun,
  categoryOf,
  latestVersion,
  type Catalogue,
  type CataloguePipeline,
  type CatalogueVersion,
} from './catalogue';

/** One version as the caller sees it: can_run and why not. */
export function presentVersion(p: CataloguePipeline, v: CatalogueVersion, user: AuthUser) {
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

const parameterSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    type: { type: 'string' },
    default: {},
    required: { type: 'boolean' },
    choices: { type: 'array' },
    min: { type: 'number' },
    max: { type: 'number' },
    validation: { type: 'string' },
    items: { type: 'string' },
    data_types: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const versionSchema = {
  type: 'object',
  required: ['id', 'version', 'is_latest', 'can_run', 'parameters', 'requirements'],
  properties: {
    id: { type: 'integer' },
    version: { type: 'string' },
    is_latest: { type: 'boolean' },
    can_run: { type: 'boolean' },
    reason: { type: ['string', 'null'] },
    engine: { type: 'string' },
    workflow_checksum: { type: ['string', 'null'] },
    pipeline: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    parameters: { type: 'array', items: parameterSchema },
    requirements: {
      type: 'object',
      properties: {
        min_samples: { type: 'integer' },
        required_data_types: { type: 'array', items: { type: 'string' } },
        supported_organisms: { type: 'array', items: { type: 'string' } },
      },
    },
    tools: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const pipelineSchema = {
  type: 'object',
  required: ['id', 'name', 'description', 'category', 'versions'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: 'string' },
    category: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
    estimated_runtime: { type: 'string' },
    upstream_pipelines: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: ['integer', 'null'] }, name: { type: 'string' } } },
    },
    required_data_types: { type: 'array', items: { type: 'string' } },
    supported_organisms: { type: 'array', items: { type: 'string' } },
    versions: { type: 'array', items: versionSchema },
  },
} as const;
