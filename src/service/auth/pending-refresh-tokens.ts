/**
 * Refresh tokens issued while the disk was full, kept in memory until they can be written
 * (identity/refresh-token-record.ts writes them): honoured and revocable meanwhile. One per
 * service, built by the composition root (`ctx.parts.pendingRefreshTokens`); refresh-tokens.ts
 * consults them together with the table.
 */
export interface PendingRefreshToken {
  userId: number;
  revoked: boolean;
}

export class PendingRefreshTokens {
  private readonly tokens = new Map<string, PendingRefreshToken>();

  /** Keeps a token that could not be written yet. */
  add(jti: string, userId: number): void {
    this.tokens.set(jti, { userId, revoked: false });
  }

  /** The pending token's state: active for this user, revoked (false), or not pending (null). */
  state(jti: string, userId: number): boolean | null {
    const p = this.tokens.get(jti);
    if (!p) return null;
    return p.userId === userId && !p.revoked;
  }

  /** Revokes pending tokens: one by jti, or all of a user's. */
  revoke(match: { jti?: string; userId?: number }): void {
    for (const [jti, p] of this.tokens) if (jti === match.jti || p.userId === match.userId) p.revoked = true;
  }

  /** Takes a token out to be written (undefined when it is no longer pending). */
  take(jti: string): PendingRefreshToken | undefined {
    const p = this.tokens.get(jti);
    this.tokens.delete(jti);
    return p;
  }

  /** Tokens waiting to be written (for tests). */
  get size(): number {
    return this.tokens.size;
  }
}
