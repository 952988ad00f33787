/** Route documentation fields that the OpenAPI collector reads from each route's schema. */
declare module 'fastify' {
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: string[];
    /** Multipart or binary request bodies, listed by media type. */
    consumes?: string[];
    /** The parts of a multipart body (a JSON Schema object), documented but parsed by the route itself. */
    multipart?: unknown;
    /** The OpenAPI operationId; without one, it is made from the method and the path. */
    operationId?: string;
    /** OpenAPI security requirements; `[]` marks a route that needs no access token (no 401). */
    security?: Array<Record<string, string[]>>;
    /** Leave the route out of the OpenAPI document (WebSocket upgrades and the like). */
    hide?: boolean;
  }
}
export {};
