/** Projects: /api/projects/ (create, list), /api/projects/{id} (read, update, delete) and sample membership. */
import { Type, type Static } from 'typebox';
import { Page } from './page';
import { Id, IdParams, Nullable, NullableString } from './resource';

/** A project as the caller sees it, with ownership and the caller's capabilities. */
export const Project = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  sample_ids: Type.Array(Type.Integer(), { description: "The project's samples that you may see, by id" }),
  samples: Type.Optional(
    Type.Array(Type.Object({ id: Type.Optional(Type.Integer()), name: Type.String() }), {
      description:
        "The project's samples by name, as its owner sees them: part of the project, so seen by whoever may view it (the samples' reads and results follow their own shares). `id` only on the samples you may see.",
    }),
  ),
  owner: NullableString,
  group_owner: NullableString,
  can_edit: Type.Boolean(),
  can_share: Type.Boolean(),
  created: Type.String(),
  updated: Type.String(),
});
export type Project = Static<typeof Project>;

export const ProjectPage = Page(Project);
export type ProjectPage = Static<typeof ProjectPage>;

const SampleIds = Type.Array(Id, { maxItems: 10_000 });
const ProjectFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000 }),
  sample_ids: SampleIds,
};

/** POST /api/projects/: owned by the caller, or by group_owner (a group slug). */
export const NewProjectBody = Type.Object(
  {
    name: ProjectFields.name,
    description: Type.Optional(ProjectFields.description),
    sample_ids: Type.Optional(ProjectFields.sample_ids),
    group_owner: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
  },
  { additionalProperties: false },
);
export type NewProjectBody = Static<typeof NewProjectBody>;

/** PUT /api/projects/{id}: sample_ids replaces the list. */
export const ProjectChangesBody = Type.Object(
  {
    name: Type.Optional(ProjectFields.name),
    description: Type.Optional(ProjectFields.description),
    sample_ids: Type.Optional(ProjectFields.sample_ids),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProjectChangesBody = Static<typeof ProjectChangesBody>;

/** POST /api/projects/{id}/samples/. */
export const ProjectSamplesBody = Type.Object({ sample_ids: SampleIds }, { additionalProperties: false });
export type ProjectSamplesBody = Static<typeof ProjectSamplesBody>;

/** DELETE /api/projects/{id}/samples/{sample_id}. */
export const ProjectSampleParams = Type.Object({ ...IdParams.properties, sample_id: Id });
export type ProjectSampleParams = Static<typeof ProjectSampleParams>;
