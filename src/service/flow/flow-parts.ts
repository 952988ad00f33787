/**
 * The Flow mount's long-lived parts, built once by the composition root: sheets uploaded
 * ahead of their reads, multiplexed uploads waiting for their mate, and the sign-in limits.
 */
import type { StoreContext } from '../context';
import { CredentialLimits } from '../identity/credential-limits';
import { createPendingSheets, type PendingSheet } from './flow-annotation';
import { createAssemblies, type Assembly } from './flow-multiplexed';

export interface FlowParts {
  pendingSheets: Map<string, PendingSheet>;
  assemblies: Map<number, Assembly>;
  signInLimits: CredentialLimits;
}

/** Builds the mount's parts; each registers its own closer. */
export function createFlowParts(ctx: StoreContext): FlowParts {
  return {
    pendingSheets: createPendingSheets(ctx),
    assemblies: createAssemblies(ctx),
    signInLimits: new CredentialLimits(ctx.clock),
  };
}
