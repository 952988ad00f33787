/** Samples: POST/GET /api/samples/, GET/PUT/PATCH/DELETE /api/samples/{id}. */
import { Type, type Static } from 'typebox';
import { DataRecord } from './data';
import { PageQueryProperties, Page } from './page';
import { AccessProperties, JsonObject, NullableInteger, NullableString } from './resource';

const SampleId = Type.Integer({ minimum: 1 });
const SampleName = Type.String({ minLength: 1, maxLength: 100 });
const SampleMetadata = JsonObject({ maxProperties: 100 });

/** POST /api/samples/: reads already uploaded, metadata checked against the vocabularies. */
export const NewSampleBody = Type.Object(
  {
    name: SampleName,
    read1: SampleId,
    read2: Type.Optional(Type.Union([SampleId, Type.Null()])),
    metadata: SampleMetadata,
    project: Type.Optional(Type.Union([SampleId, Type.Null()])),
    group_owner: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type NewSampleBody = Static<typeof NewSampleBody>;

/** PUT/PATCH /api/samples/{id}: a new name, new metadata, or both. */
export const SampleChangesBody = Type.Object(
  { name: Type.Optional(SampleName), metadata: Type.Optional(SampleMetadata) },
  { additionalProperties: false, minProperties: 1 },
);
export type SampleChangesBody = Static<typeof SampleChangesBody>;

/** GET /api/samples/ filters. */
export const SampleListQuery = Type.Object(
  {
    ...PageQueryProperties,
    name: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name, any case' })),
    organism: Type.Optional(Type.String()),
    category: Type.Optional(Type.String()),
    project: Type.Optional(SampleId),
    lane: Type.Optional(SampleId),
    paired: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SampleListQuery = Static<typeof SampleListQuery>;

/** A sample as the caller sees it: `data` lists the reads first, then other files of the sample. */
export const Sample = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  read1: Type.Integer(),
  read2: NullableInteger,
  paired: Type.Optional(Type.Boolean()),
  metadata: JsonObject(),
  lane_id: Type.Optional(NullableInteger),
  project_ids: Type.Optional(
    Type.Array(Type.Integer(), { description: 'The projects holding this sample that you may see' }),
  ),
  created: Type.Optional(Type.String()),
  updated: Type.Optional(Type.String()),
  data: Type.Array(DataRecord),
  owner: AccessProperties.owner,
  group_owner: Type.Optional(NullableString),
  can_edit: Type.Boolean(),
  can_share: AccessProperties.can_share,
});
export type Sample = Static<typeof Sample>;

export const SamplePage = Page(Sample);
export type SamplePage = Static<typeof SamplePage>;
