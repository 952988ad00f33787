/**
 * The service API defined once, as TypeBox schemas (JSON Schema as fastify, ajv and OpenAPI
 * use it): request, response and error bodies per area. Routes register these schemas with
 * fastify's TypeBox type provider, so handlers are typed without casts; the renderer's and the
 * core's clients use the Static types; the OpenAPI document is generated from the same routes.
 * Areas move here one by one; see docs/service/README.md.
 */
export * from './error-body';
export * from './health';
export * from './page';
export * from './resource';
export * from './identity';
export * from './api-keys';
export * from './groups';
export * from './shares';
export * from './projects';
export * from './notifications';
export * from './audit';
export * from './webhooks';
export * from './data';
export * from './uploads';
export * from './samples';
export * from './lanes';
export * from './vocabularies';
export * from './annotation';
export * from './pipelines';
export * from './executions';
export * from './graphql';
export * from './reports';
export * from './settings';
