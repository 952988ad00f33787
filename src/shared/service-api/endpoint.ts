/**
 * One descriptor per operation of the service API: its method, path, the schemas of its path
 * parameters, query, body and answers, and its OpenAPI documentation. The service registers its
 * route from the descriptor (src/service/http/serve-endpoint.ts) and the clients call through it
 * (`client.call(getLanesById, { params: { id } })`), so the path, the schemas and the answer type
 * a caller reads are written once and cannot drift apart. See docs/service/endpoints.md.
 */
import type { Static, TSchema } from 'typebox';
import type { ServiceErrorCode } from '../errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The answers of an operation by HTTP status. */
export type Responses = { readonly [status: number]: TSchema };

export interface Endpoint {
  readonly method: HttpMethod;
  /** The fastify path, `:name` for a path parameter. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: TSchema;
  readonly query?: TSchema;
  /** A JSON body. */
  readonly body?: TSchema;
  /** The fields and files of a multipart body, parsed by the route itself (documented, not validated by fastify). */
  readonly multipart?: TSchema;
  readonly consumes?: readonly string[];
  /** The answers by status; none for an operation that answers 204 without a body. */
  readonly response?: Responses;
  /** The error codes the operation answers beside UNAUTHENTICATED and VALIDATION_ERROR (documentation). */
  readonly errors?: readonly ServiceErrorCode[];
  /** `[]` marks an operation that needs no access token. */
  readonly security?: ReadonlyArray<Record<string, readonly string[]>>;
}

/** Declares an operation; the literal types of its method, path and schemas are kept. */
export function op<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

type SuccessStatus = 200 | 201 | 202 | 204 | 206;

/** What a successful answer of the operation holds (the union over its 2xx schemas; none for a 204). */
export type ResponseOf<E extends Endpoint> = E extends Endpoint ? SuccessOf<E> : never;

type SuccessOf<E extends Endpoint> = E['response'] extends Responses
  ? {
      [K in keyof E['response']]: K extends SuccessStatus
        ? E['response'][K] extends TSchema
          ? Static<E['response'][K]>
          : never
        : never;
    }[keyof E['response']]
  : undefined;

/** The path parameters, query and JSON body a call of the operation sends. */
export type CallArgs<E extends Endpoint> = (E['params'] extends TSchema
  ? { params: Static<E['params']> }
  : { params?: undefined }) &
  // A query's defaults (page, per_page) are the service's: every field may be left out.
  (E['query'] extends TSchema ? { query?: Partial<Static<E['query']>> } : { query?: undefined }) &
  (E['body'] extends TSchema ? { body: Static<E['body']> } : { body?: undefined });

/**
 * The arguments after the descriptor, with a client's own options `X` (a signal, headers): none
 * at all when the operation needs no params and no body.
 */
export type CallRest<E extends Endpoint, X extends object = object> =
  object extends CallArgs<E> ? [args?: CallArgs<E> & X] : [args: CallArgs<E> & X];

/** The path with its `:name` parameters filled in (each URL-encoded). */
export function pathOf(endpoint: Endpoint, params?: object): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${endpoint.operationId}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
