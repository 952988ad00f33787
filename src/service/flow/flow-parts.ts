/**
 * The Flow mount's long-lived parts, built once by the composition root: multiplexed uploads
 * waiting for their mate. (Sheets uploaded ahead of their reads are rows in the database,
 * flow-sheets.store.ts; their files with no row are swept here at start.)
 */
import type { StoreContext } from '../context';
import { sweepSheetFiles } from './flow-annotation';
import { createAssemblies, type Assembly } from './flow-multiplexed';

export interface FlowParts {
  assemblies: Map<number, Assembly>;
}

/** Builds the mount's parts; each registers its own closer. */
export function createFlowParts(ctx: StoreContext): FlowParts {
  sweepSheetFiles(ctx);
  return { assemblies: createAssemblies(ctx) };
}
