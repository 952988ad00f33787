/** Limits of the service interface (spec: Limits). */
export const MAX_CHUNK_BYTES = 50 * 1000 * 1000;
export const MAX_FILE_BYTES = 50 * 1000 * 1000 * 1000;
export const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;
export const ACCESS_TOKEN_SECONDS = 30 * 60;
export const REFRESH_TOKEN_SECONDS = 365 * 24 * 60 * 60;
export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;
/** Largest JSON body the service parses; anything bigger answers 413. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Longest execution name, on every route (REST, GraphQL, re-runs): names reach mail subjects. */
export const MAX_RUN_NAME_LENGTH = 200;
