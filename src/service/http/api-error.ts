/**
 * The one factory for service errors: every failure a route reports is an ApiError, and the
 * error handler turns it into the `{error, code, status}` body plus the code's extras.
 */
import { SERVICE_ERROR_STATUS, type ServiceErrorBody, type ServiceErrorCode } from '../../shared/errors';

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = SERVICE_ERROR_STATUS[code];
  }

  toBody(): ServiceErrorBody {
    return { error: this.message, code: this.code, status: this.status, ...this.extras };
  }
}

/** Shorthands for the errors routes raise most. */
export const errors = {
  unauthenticated: (message = 'Authentication required: refresh the access token or log in again') =>
    new ApiError('UNAUTHENTICATED', message),
  notFound: (what = 'Resource') => new ApiError('NOT_FOUND', `${what} not found`),
  permissionDenied: (message = 'You do not have permission to do this') => new ApiError('PERMISSION_DENIED', message),
  validation: (fields: Record<string, string>, message = 'Invalid request') =>
    new ApiError('VALIDATION_ERROR', message, { fields }),
  conflict: (message: string) => new ApiError('CONFLICT', message),
};
