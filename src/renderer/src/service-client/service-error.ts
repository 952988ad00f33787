/** Errors of service requests, carrying the service's own message, code and extras. */
import { isServiceErrorBody } from '../../../shared/errors';

/** A failed service request: the service's `{error, code, status}` body, or a network failure. */
export class ServiceRequestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(message: string, code: string, status: number, body: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ServiceRequestError';
    this.code = code;
    this.status = status;
    this.body = body;
  }
  /** True when the request never got an answer (offline, service stopped). */
  get network(): boolean {
    return this.code === 'NETWORK';
  }
}

/** Builds the error for a non-2xx response, keeping the service's body when it has the spec's shape. */
export async function errorFromResponse(res: Response): Promise<ServiceRequestError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: a proxy or a crash page; fall through to the status text
  }
  if (isServiceErrorBody(body)) return new ServiceRequestError(body.error, body.code, body.status, body);
  return new ServiceRequestError(
    `The service answered ${res.status} ${res.statusText || ''}`.trim(),
    res.status >= 500 ? 'INTERNAL' : 'HTTP_ERROR',
    res.status,
  );
}

const REMEDIES: Record<string, string> = {
  NETWORK: 'Check that the service is running and this computer is online; Laneway retries on its own.',
  UNAUTHENTICATED: 'Your session expired: sign in again.',
  INVALID_CREDENTIALS: 'Check the username and password (they are case-sensitive).',
  INVALID_REFRESH_TOKEN: 'Sign in again to start a new session.',
  NOT_SIGNED_IN: 'Sign in first.',
  PERMISSION_DENIED: 'Ask an admin of the owning group for a higher permission.',
  INSUFFICIENT_PERMISSIONS: 'Ask an administrator to allow your account to run pipelines.',
  NOT_FOUND: 'It may have been deleted, or it is no longer shared with you: refresh the list.',
  VALIDATION_ERROR: 'Correct the highlighted fields and try again.',
  INVALID_FORMAT:
    'Only FASTQ reads and references (FASTA, GTF, GFF3, BED; plain or gzip) are accepted, with content that matches the extension: check the file.',
  PAYLOAD_TOO_LARGE: 'Split the file, or ask for a larger upload limit.',
  DUPLICATE_FILE: 'This file is already on the service: use the existing data record.',
  UPLOAD_CONFLICT: 'Cancel this upload and start it again.',
  CHECKSUM_MISMATCH: 'The file changed while it was uploading: retry once it is complete.',
  INVALID_ANNOTATION: 'Fix the problems marked on the sheet, then submit again.',
  ANNOTATION_WARNINGS: 'Review the warnings; submit again with "ignore warnings" if they are expected.',
  INVALID_SAMPLES: 'Remove or replace the samples marked as incompatible.',
  MISSING_PARAMETERS: 'Fill in the required parameters marked on the form.',
  INVALID_PARAMETERS: 'Correct the parameters marked on the form.',
  LAST_ADMIN: 'Promote another member to admin first, or delete the group.',
  NOT_CANCELLABLE: 'The execution has already finished.',
  CONFLICT: 'Refresh and try again.',
  RATE_LIMITED: 'Wait a moment and try again.',
  INTERNAL: 'This is a bug in the service: try again, and report it if it persists.',
  SERVICE_UNAVAILABLE: 'The service is not running: Laneway restarts the local one on its own.',
};

/** What the technician can do next about an error code. */
export function remedyFor(code: string): string {
  return REMEDIES[code] ?? 'Try again; if it keeps failing, note the message and contact your administrator.';
}

/** Message and code of anything thrown, for display. */
export function describeError(err: unknown): { message: string; code: string } {
  if (err instanceof ServiceRequestError) return { message: err.message, code: err.code };
  if (err && typeof err === 'object' && 'code' in err && 'message' in err)
    return { message: String((err as { message: unknown }).message), code: String((err as { code: unknown }).code) };
  return { message: err instanceof Error ? err.message : String(err), code: 'UNKNOWN' };
}
