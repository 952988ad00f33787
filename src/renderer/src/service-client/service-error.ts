/**
 * What the technician can do about a failed service request (the error itself is the shared
 * ServiceError, src/shared/service-client/service-error.ts), and any error's message and code.
 */
import { ServiceError } from '../../../shared/service-client/service-error';

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
  if (err instanceof ServiceError) return { message: err.message, code: err.code };
  if (err && typeof err === 'object' && 'code' in err && 'message' in err)
    return { message: String((err as { message: unknown }).message), code: String((err as { code: unknown }).code) };
  return { message: err instanceof Error ? err.message : String(err), code: 'UNKNOWN' };
}
