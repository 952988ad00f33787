/**
 * The GraphQL multipart request (github.com/jaydenseric/graphql-multipart-request-spec), as
 * flowbio's legacy client sends its chunks: the field `operations` (the JSON request with the
 * file variable null), the field `map` (`{"0": ["variables.blob"]}`), then the file part `0`.
 * A chunk is held in memory (flowbio sends 1 MB; the service's chunk limit bounds it) and put
 * into the variables as an {@link UploadedFile}, which the upload resolvers forward.
 */
import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { fieldBag } from '../../http/form-fields';
import { MAX_CHUNK_BYTES } from '../../../shared/limits';

export interface UploadedFile {
  readonly kind: 'upload';
  filename: string;
  bytes: Buffer;
}

export interface GraphqlOperation {
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

export class MultipartRefusal extends Error {}

/** The first place `variables.<name>` of a map entry points to (only top-level variables are files here). */
function variableOf(path: unknown): string {
  if (typeof path !== 'string' || !/^variables\.[A-Za-z_][A-Za-z0-9_]*$/.test(path)) {
    throw new MultipartRefusal(`map: "${String(path)}" is not a top-level variable (variables.<name>)`);
  }
  const name = path.slice('variables.'.length);
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
    throw new MultipartRefusal(`map: "${name}" is not a variable name this service takes`);
  }
  return name;
}

/** Reads a multipart GraphQL request into one operation whose file variables hold the bytes. */
export async function readGraphqlMultipart(request: FastifyRequest): Promise<GraphqlOperation> {
  const fields = fieldBag<string>();
  const files = new Map<string, UploadedFile>();
  let problem: string | null = null;
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: request.headers,
        limits: { fileSize: MAX_CHUNK_BYTES, files: 1, fields: 4, fieldSize: 1024 * 1024, parts: 5 },
      });
    } catch {
      problem = 'Expected a multipart/form-data body with a boundary';
      if (request.raw.readableEnded) resolve();
      else request.raw.once('end', resolve).resume();
      return;
    }
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) problem ??= `The field "${name}" is too long`;
      fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        if ((stream as { truncated?: boolean }).truncated)
          problem ??= `The file part is larger than ${MAX_CHUNK_BYTES} bytes`;
        else files.set(name, { kind: 'upload', filename: info.filename ?? '', bytes: Buffer.concat(parts) });
      });
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      bb.on(limit, () => (problem ??= 'Too many parts: one operation and one file per request'));
    }
    bb.on('close', resolve);
    bb.on('error', () => {
      problem ??= 'Malformed multipart body';
      request.raw.unpipe(bb);
      request.raw.resume();
      resolve();
    });
    request.raw.pipe(bb);
  });
  if (problem) throw new MultipartRefusal(problem);
  let operation: GraphqlOperation;
  let map: Record<string, unknown>;
  try {
    operation = JSON.parse(fields.operations ?? '') as GraphqlOperation;
    map = JSON.parse(fields.map ?? '') as Record<string, unknown>;
  } catch {
    throw new MultipartRefusal('The fields "operations" and "map" must be JSON');
  }
  if (!operation || typeof operation !== 'object' || typeof operation.query !== 'string') {
    throw new MultipartRefusal('"operations" must be one GraphQL request with a query');
  }
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new MultipartRefusal('"map" must be an object');
  const variables: Record<string, unknown> =
    operation.variables && typeof operation.variables === 'object' ? { ...operation.variables } : {};
  for (const [part, paths] of Object.entries(map)) {
    const file = files.get(part);
    if (!file) throw new MultipartRefusal(`map names the file part "${part}", which the request lacks`);
    if (!Array.isArray(paths) || paths.length !== 1) throw new MultipartRefusal('Each file goes to one variable');
    const name = variableOf(paths[0]);
    // The spec's rule: the operation holds null where a file goes.
    if (variables[name] !== null) throw new MultipartRefusal(`map: variables.${name} is not null in "operations"`);
    variables[name] = file;
  }
  return { query: operation.query, variables, operationName: operation.operationName };
}

/** True when a variable holds a file of this request. */
export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as UploadedFile).kind === 'upload';
}
