/** The sample vocabularies: GET /api/organisms, /api/categories and /api/metadata-fields. */
import { Type, type Static } from 'typebox';
import { NullableInteger } from './resource';

export const Organism = Type.Object({
  name: Type.String(),
  common_name: Type.String(),
  taxonomy_id: NullableInteger,
});
export type Organism = Static<typeof Organism>;

/** A sample category (the sample type). */
export const Category = Type.Object({ name: Type.String(), description: Type.String() });
export type Category = Static<typeof Category>;

/** A sample metadata field with its description and rule. */
export const MetadataField = Type.Object({
  key: Type.String(),
  label: Type.String(),
  required: Type.Boolean(),
  lane_only: Type.Optional(Type.Boolean()),
  type: Type.String(),
  vocabulary: Type.Optional(Type.String()),
  description: Type.String(),
  rule: Type.String(),
  example: Type.String(),
});
export type MetadataField = Static<typeof MetadataField>;

export const OrganismList = Type.Array(Organism);
export const CategoryList = Type.Array(Category);
export const MetadataFieldList = Type.Array(MetadataField);
