/**
 * The pipeline catalogue and runs: GET /api/pipelines (a bare array), /api/pipelines/{id},
 * /api/pipelines/versions/{id}; POST /api/pipelines/versions/{id}/run and
 * /api/pipelines/{id}/run (the run body; the answer is an execution).
 */
import { Type, type Static } from 'typebox';
import { PARAMETER_TYPES } from '../pipelines/parameters';
import { Nullable, NullableString, StringEnum } from './resource';

/** Any JSON object (`{type: 'object'}`): parameters and metadata of a run. */
const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });

const parameterProperties = {
  name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'an identifier' }),
  description: Type.String(),
  type: StringEnum(PARAMETER_TYPES),
  default: Type.Optional(Type.Unknown()),
  required: Type.Boolean(),
  choices: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
  /** A regular expression (whole value) for strings, files' names or array items. */
  validation: Type.Optional(Type.String()),
  /** For arrays: the type of each item (string when absent). */
  items: Type.Optional(StringEnum(['string', 'integer', 'float'])),
  /** For files: the data types a record must have (fasta, gtf, gff3, bed...); any when absent. */
  data_types: Type.Optional(Type.Array(Type.String())),
};

/** One typed parameter of a pipeline version, as the service serves it and the run rules read it. */
export const PipelineParameter = Type.Object(parameterProperties);
export type PipelineParameter = Static<typeof PipelineParameter>;

/** A parameter as a manifest writes it: the description and `required` may be left out ('' and false). */
export const ManifestParameter = Type.Object({
  ...parameterProperties,
  description: Type.Optional(Type.String()),
  required: Type.Optional(Type.Boolean()),
});
export type ManifestParameter = Static<typeof ManifestParameter>;

export const PipelineRequirements = Type.Object({
  min_samples: Type.Optional(Type.Integer()),
  /** Absent: no limit. 0: the version runs on its file parameters and takes no samples. */
  max_samples: Type.Optional(Type.Integer()),
  required_data_types: Type.Optional(Type.Array(Type.String())),
  supported_organisms: Type.Optional(Type.Array(Type.String())),
});
export type PipelineRequirements = Static<typeof PipelineRequirements>;

/** One version as the caller sees it: can_run, and why not. */
export const PipelineVersion = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  is_latest: Type.Boolean(),
  can_run: Type.Boolean(),
  reason: Type.Optional(NullableString),
  engine: Type.Optional(Type.String()),
  workflow_checksum: Type.Optional(NullableString),
  pipeline: Type.Optional(Type.Object({ id: Type.Optional(Type.Integer()), name: Type.Optional(Type.String()) })),
  parameters: Type.Array(PipelineParameter),
  requirements: PipelineRequirements,
  tools: Type.Optional(Type.Array(Type.String())),
});
export type PipelineVersion = Static<typeof PipelineVersion>;

/** One pipeline with its versions; requirement lists are the latest version's. */
export const Pipeline = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  category: Type.Object({ id: Type.Integer(), name: Type.String() }),
  estimated_runtime: Type.Optional(Type.String()),
  upstream_pipelines: Type.Optional(Type.Array(Type.Object({ id: Nullable(Type.Integer()), name: Type.String() }))),
  required_data_types: Type.Optional(Type.Array(Type.String())),
  supported_organisms: Type.Optional(Type.Array(Type.String())),
  versions: Type.Array(PipelineVersion),
});
export type Pipeline = Static<typeof Pipeline>;

export const PipelineList = Type.Array(Pipeline);

/** `{id}` of POST /api/pipelines/{id}/run: a pipeline id or name. */
export const PipelineRefParams = Type.Object({
  // Named like GET /api/pipelines/:id: the router shares one parameter per position.
  id: Type.String({ minLength: 1, maxLength: 200, description: 'pipeline id or name' }),
});
export type PipelineRefParams = Static<typeof PipelineRefParams>;

export const RunPriority = StringEnum(['high', 'normal', 'low']);
export type RunPriority = Static<typeof RunPriority>;

const StringOrNumberOrNull = Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] });

/** The run body's fields: the spec's name, samples and parameters, and the client's extras. */
const runProperties = {
  name: Type.Optional(Type.String({ maxLength: 200 })),
  samples: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })),
  parameters: Type.Optional(AnyObject),
  metadata: Type.Optional(AnyObject),
  upstream_execution: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  priority: Type.Optional(RunPriority),
  resources: Type.Optional(
    Type.Object(
      {
        cpus: Type.Optional(Type.Integer()),
        memory: Type.Optional(StringOrNumberOrNull),
        queue: Type.Optional(NullableString),
        time_limit: Type.Optional(StringOrNumberOrNull),
      },
      { additionalProperties: false },
    ),
  ),
  test_mode: Type.Optional(Type.Boolean()),
  version: Type.Optional(Type.String()),
  group_owner: Type.Optional(NullableString),
};

/** POST .../run: every field optional (the version's defaults and the caller's samples apply). */
export const RunBody = Type.Object(runProperties, { additionalProperties: false });
export type RunBody = Static<typeof RunBody>;

const { version: _version, upstream_execution: _upstream, ...rerunProperties } = runProperties;

/** POST /api/executions/{id}/rerun: any of the run's settings to change; absent ones are the execution's. */
export const RerunBody = Type.Object(rerunProperties, { additionalProperties: false });
export type RerunBody = Static<typeof RerunBody>;
