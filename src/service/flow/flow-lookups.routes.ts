/**
 * Flow's lookups: sample types, metadata attributes and their options, organisms, the caller's
 * projects and the annotation template, from the service's vocabularies and stores.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ServiceContext } from '../context';
import { contentDisposition } from '../data/http-range';
import { loadVocabularies } from '../vocabularies/vocabularies';
import { flowUser } from './flow-auth';
import { flowNotFound } from './flow-errors';
import { ownedProjectsPage } from './flow-lookups.store';
import { flowSchema } from './flow-openapi';
import { flowTemplateBytes } from './flow-template';
import { categoryFromFlow, flowAttributes, flowOrganisms } from './flow-vocabulary';
import { flowEnvelope, FlowMetadataAttribute, FlowOrganism, FlowPageQuery, FlowSampleType } from './flow.schemas';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const Name = Type.Object({ name: Type.String() });

function sampleTypes() {
  return loadVocabularies().categories.map((c) => ({ identifier: c.name, name: c.name, description: c.description }));
}

function attributes() {
  return flowAttributes().map((f) => ({
    identifier: f.key,
    name: f.label,
    description: f.description,
    required: f.required,
    has_options: false,
    allow_user_terms: true,
    allow_annotation: false,
    sample_type_links: [],
    regex_validator: null,
    in_table: true,
    all_sample_types: true,
  }));
}

export function flowLookupRoutes(scope: FastifyInstance, ctx: ServiceContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    `/samples/types`,
    { schema: flowSchema({ summary: 'Sample types (the categories)', response: { 200: Type.Array(FlowSampleType) } }) },
    async (request) => (flowUser(request), sampleTypes()),
  );
  app.get(
    `/samples/types/:name`,
    { schema: flowSchema({ summary: 'One sample type', params: Name, response: { 200: FlowSampleType } }) },
    async (request) => {
      flowUser(request);
      const found = sampleTypes().find((t) => t.identifier === categoryFromFlow(request.params.name));
      if (!found) throw flowNotFound();
      return found;
    },
  );
  app.get(
    `/samples/metadata`,
    {
      schema: flowSchema({
        summary: 'Metadata attributes (free text; Laneway has no option lists)',
        response: { 200: Type.Array(FlowMetadataAttribute) },
      }),
    },
    async (request) => (flowUser(request), attributes()),
  );
  app.get(
    `/samples/metadata/:name/options`,
    { schema: flowSchema({ summary: "An attribute's options (none: every attribute is free text)", params: Name }) },
    async (request) => {
      flowUser(request);
      if (!attributes().some((a) => a.identifier === request.params.name)) throw flowNotFound();
      return { count: 0, total_count: 0, options: [] };
    },
  );
  app.get(
    `/organisms`,
    {
      schema: flowSchema({
        summary: 'Organisms: a short code, the common and the Latin name',
        response: { 200: Type.Array(FlowOrganism) },
      }),
    },
    async (request) => (flowUser(request), flowOrganisms()),
  );
  app.get(
    `/organisms/:name`,
    { schema: flowSchema({ summary: 'One organism', params: Name, response: { 200: FlowOrganism } }) },
    async (request) => {
      flowUser(request);
      const found = flowOrganisms().find((o) => o.id === request.params.name);
      if (!found) throw flowNotFound();
      return found;
    },
  );
  app.get(
    `/projects/owned`,
    {
      schema: flowSchema({
        summary: "The caller's own projects",
        querystring: FlowPageQuery,
        response: { 200: flowEnvelope('projects') },
      }),
    },
    async (request) => {
      const user = flowUser(request);
      const { page, count } = request.query;
      const { total, rows } = ownedProjectsPage(ctx, user.id, page, count);
      return {
        count: total,
        page,
        projects: rows.map((p) => ({
          id: String(p.id),
          name: p.name,
          description: p.description ?? '',
          created: Math.floor(Date.parse(p.created) / 1000),
        })),
      };
    },
  );
  app.get(
    `/annotation/:name`,
    {
      schema: flowSchema({
        summary: 'The lane annotation template (xlsx) with File columns; `generic` or a sample type',
        params: Name,
      }),
    },
    async (request, reply) => {
      flowUser(request);
      const type = request.params.name;
      if (type !== 'generic' && !categoryFromFlow(type)) throw flowNotFound();
      const bytes = await flowTemplateBytes();
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', contentDisposition(`${type}-annotation-template.xlsx`))
        .send(bytes);
    },
  );
}
