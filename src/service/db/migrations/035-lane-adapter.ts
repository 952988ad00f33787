import type { Migration } from './index';

/**
 * The 3' adapter a lane's 3' barcodes sit before, when the lane named one (null: a known adapter
 * is looked for in the reads). Where the barcodes are is chosen from the first reads again when
 * the lane runs, so nothing else about the choice needs keeping.
 */
export const m035LaneAdapter: Migration = {
  version: 35,
  name: 'lane-adapter',
  up: `
    ALTER TABLE lanes ADD COLUMN adapter TEXT;
  `,
};
