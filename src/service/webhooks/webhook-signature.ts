/**
 * The signature a receiver checks: HMAC-SHA256 of the exact request body with the webhook's
 * secret, hex, as `sha256=<hex>` in the X-Laneway-Signature-256 header (the form GitHub uses,
 * so receivers' existing verification code fits). Compare with a constant-time equality.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-laneway-signature-256';

/** The header value for a body. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `header` is the signature of `body` under `secret` (what a receiver does). */
export function verifySignature(secret: string, body: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
