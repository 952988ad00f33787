/** Stable error codes of the service API (design/API.md) and their HTTP statuses. */
export const SERVICE_ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  PERMISSION_DENIED: 403,
  INSUFFICIENT_PERMISSIONS: 403,
  NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  INVALID_FORMAT: 400,
  PAYLOAD_TOO_LARGE: 413,
  DUPLICATE_FILE: 409,
  UPLOAD_CONFLICT: 409,
  CHECKSUM_MISMATCH: 422,
  INVALID_ANNOTATION: 400,
  ANNOTATION_WARNINGS: 409,
  INVALID_SAMPLES: 400,
  INVALID_PAIRING: 400,
  MISSING_PARAMETERS: 400,
  INVALID_PARAMETERS: 400,
  LAST_ADMIN: 409,
  NOT_CANCELLABLE: 409,
  NOT_RESUMABLE: 409,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  RANGE_NOT_SATISFIABLE: 416,
  INSUFFICIENT_STORAGE: 507,
  INTERNAL: 500,
} as const;

export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** The body every service error answers with, plus per-code extras. */
export interface ServiceErrorBody {
  error: string;
  code: ServiceErrorCode;
  status: number;
  [extra: string]: unknown;
}

/** Codes the desktop core adds to the service's own when errors cross the desktop API. */
export const DESKTOP_ERROR_CODES = [
  'BAD_REQUEST',
  'UNKNOWN_METHOD',
  'FORBIDDEN_SENDER',
  'NOT_SIGNED_IN',
  'SERVICE_UNAVAILABLE',
  'NETWORK',
  'DESKTOP_INTERNAL',
] as const;

export type DesktopErrorCode = (typeof DESKTOP_ERROR_CODES)[number];

/** An error as it crosses the desktop API: data, never a thrown object. */
export interface DesktopErrorData {
  code: DesktopErrorCode | ServiceErrorCode;
  message: string;
  retryable: boolean;
  details?: unknown;
}

/** True when a value has the shape of a service error body. */
export function isServiceErrorBody(value: unknown): value is ServiceErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.error === 'string' && typeof v.code === 'string' && typeof v.status === 'number';
}
