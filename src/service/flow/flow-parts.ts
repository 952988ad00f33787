/**
 * The Flow mount's long-lived parts, built once by the composition root: sheets uploaded
 * ahead of their reads, and multiplexed uploads waiting for their mate.
 */
import type { StoreContext } from '../context';
import { createPendingSheets, type PendingSheet } from './flow-annotation';
import { createAssemblies, type Assembly } from './flow-multiplexed';

export interface FlowParts {
  pendingSheets: Map<string, PendingSheet>;
  assemblies: Map<number, Assembly>;
}

/** Builds the mount's parts; each registers its own closer. */
export function createFlowParts(ctx: StoreContext): FlowParts {
  return {
    pendingSheets: createPendingSheets(ctx),
    assemblies: createAssemblies(ctx),
  };
}
