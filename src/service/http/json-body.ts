/**
 * The service's JSON body parser: fastify's own (prototype-poisoning checks kept), plus a depth
 * limit. A body nested thousands deep parses, but storing it (JSON.stringify) or validating it
 * recurses until the stack overflows: a 500. Refused here with VALIDATION_ERROR instead, for
 * every route at once.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../shared/json-depth';
import { ApiError } from './api-error';

export function installJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    parse(request, body as string, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(
          new ApiError('VALIDATION_ERROR', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, {
            fields: { body: `nested deeper than ${MAX_JSON_DEPTH} levels` },
          }),
          undefined,
        );
      }
      done(null, value);
    });
  });
}
