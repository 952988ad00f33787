/**
 * A legacy upload chunk becomes a chunk of the v2 offset protocol, sent to the mount's own
 * route in-process (fastify's inject) with the caller's credential and address: one upload
 * path, so the legacy client gets the same format checks, re-send rules, checksums, duplicate
 * refusals, limits, disk-full answers and lane checks as flowbio's v2 client.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FLOW_PREFIX } from '../flow-cookie';
import { FlowError } from '../flow-errors';
import { isUploadedFile } from './legacy-multipart';

export type LegacyUploadKind = 'upload' | 'upload/annotation' | 'upload/multiplexed';

export interface LegacyChunkArgs {
  blob: unknown;
  isLast: boolean;
  expectedFileSize: number;
  data?: string | null;
  filename: string;
  ignoreWarnings?: boolean | null;
}

function multipartBody(fields: Record<string, string>, file: { filename: string; bytes: Buffer }) {
  const boundary = `laneway-legacy-${randomBytes(12).toString('hex')}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="${file.filename.replace(/["\r\n]/g, '_')}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const body = Buffer.concat([Buffer.from(head + fileHead), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends one chunk through the v2 route; the data id the legacy client carries on (or a FlowError). */
export async function forwardChunk(
  app: FastifyInstance,
  request: FastifyRequest,
  kind: LegacyUploadKind,
  args: LegacyChunkArgs,
): Promise<string> {
  if (!isUploadedFile(args.blob)) throw new FlowError(400, { error: 'blob must be the file part of the request' });
  if (!Number.isSafeInteger(args.expectedFileSize) || args.expectedFileSize < 0) {
    throw new FlowError(400, { error: 'expectedFileSize must be a whole byte offset' });
  }
  const fields: Record<string, string> = {
    filename: args.filename,
    expected_file_size: String(args.expectedFileSize),
    is_last: String(args.isLast),
  };
  if (args.data) fields.data = String(args.data);
  if (args.ignoreWarnings) fields.ignore_warnings = 'true';
  const { body, contentType } = multipartBody(fields, args.blob);
  const answer = await app.inject({
    method: 'POST',
    url: `${FLOW_PREFIX}/${kind}`,
    headers: {
      'content-type': contentType,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    },
    remoteAddress: request.ip,
    payload: body,
  });
  let parsed: Record<string, unknown>;
  try {
    parsed = answer.json();
  } catch {
    parsed = { error: answer.body };
  }
  if (answer.statusCode !== 200) throw new FlowError(answer.statusCode, parsed);
  const id = parsed.id ?? parsed.data_id;
  return String(id);
}
