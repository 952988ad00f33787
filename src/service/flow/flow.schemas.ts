/**
 * The Flow mount's wire shapes (FLOW-WIRE.md), as TypeBox schemas: they validate requests and
 * serialise answers, and the mount's own OpenAPI document is built from them. Ids are strings
 * on this wire; objects stay open (`additionalProperties`) where Flow's clients ignore extras.
 */
import { Type } from 'typebox';

const Open = { additionalProperties: true } as const;
export const FlowId = Type.String({ description: 'A stringified integer id' });
export const FlowIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });

export const FlowErrorBody = Type.Object(
  {
    error: Type.Union([Type.String(), Type.Record(Type.String(), Type.Array(Type.String()))], {
      description: 'A message, or form errors: field → messages',
    }),
  },
  Open,
);

export const FlowLoginBody = Type.Object({ username: Type.String(), password: Type.String() });
export const FlowUserSummary = Type.Object(
  { id: FlowId, username: Type.String(), name: Type.String(), is_admin: Type.Boolean() },
  Open,
);
export const FlowTokenAnswer = Type.Object({ token: Type.String(), user: FlowUserSummary });

export const FlowMe = Type.Object(
  {
    id: FlowId,
    username: Type.String(),
    name: Type.String(),
    email: Type.String(),
    image: Type.Null(),
    is_admin: Type.Boolean(),
    can_run_pipelines: Type.Boolean(),
    can_impersonate: Type.Boolean(),
    has_ssh_key: Type.Boolean(),
    impersonator: Type.Null(),
    features: Type.Object({}, Open),
    memberships: Type.Array(Type.Object({ name: Type.String(), slug: Type.String(), is_admin: Type.Boolean() })),
    notifications: Type.Object(
      { count: Type.Integer(), unread_count: Type.Integer(), notifications: Type.Array(Type.Any()) },
      Open,
    ),
  },
  Open,
);

/** Every chunk of every upload endpoint (multipart; §3 of FLOW-WIRE.md). */
export const FlowChunkForm = Type.Object(
  {
    filename: Type.String(),
    expected_file_size: Type.String({ description: 'Bytes the server already holds (an offset)' }),
    is_last: Type.String({ enum: ['true', 'false'] }),
    data: Type.String({ description: '"" on the first chunk, then the previous answer\'s id' }),
    blob: Type.String({ format: 'binary' }),
  },
  Open,
);
export const FlowChunkAnswer = Type.Object(
  { id: Type.Optional(FlowId), data_id: FlowId, sample_id: Type.Optional(Type.Union([FlowId, Type.Null()])) },
  Open,
);

export const FlowSampleType = Type.Object(
  { identifier: Type.String(), name: Type.String(), description: Type.String() },
  Open,
);
export const FlowMetadataAttribute = Type.Object(
  {
    identifier: Type.String(),
    name: Type.String(),
    description: Type.String(),
    required: Type.Boolean(),
    has_options: Type.Boolean(),
    allow_user_terms: Type.Boolean(),
    allow_annotation: Type.Boolean(),
    sample_type_links: Type.Array(Type.Object({ sample_type_identifier: Type.String(), required: Type.Boolean() })),
  },
  Open,
);
export const FlowOrganism = Type.Object({ id: Type.String(), name: Type.String(), latin_name: Type.String() }, Open);

/** Flow's list paging: `page` from 1, `count` the page size (at most 100). */
export const FlowPageQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    count: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  Open,
);
export const flowEnvelope = (key: string) =>
  Type.Object({ count: Type.Integer(), page: Type.Integer(), [key]: Type.Array(Type.Object({}, Open)) }, Open);

export const FlowRunBody = Type.Object(
  {
    params: Type.Record(Type.String(), Type.Any()),
    data_params: Type.Record(Type.String(), Type.Any()),
    csv_params: Type.Record(
      Type.String(),
      Type.Object(
        {
          rows: Type.Array(Type.Object({ sample: Type.Optional(Type.Union([Type.String(), Type.Integer()])) }, Open)),
        },
        Open,
      ),
    ),
    nextflow_version: Type.String(),
  },
  Open,
);
export const FlowExecution = Type.Object({ id: FlowId, status: Type.String() }, Open);
export const FlowAnyObject = Type.Object({}, Open);
export const FlowAnyArray = Type.Array(Type.Object({}, Open));
