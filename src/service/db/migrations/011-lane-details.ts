import type { Migration } from './index';

/** What a lane records beyond migration 10: its barcode design and the undetermined reads' data. */
export const m011LaneDetails: Migration = {
  version: 11,
  name: 'lane-details',
  up: `
    ALTER TABLE lanes ADD COLUMN layout TEXT;
    ALTER TABLE lanes ADD COLUMN barcode_source TEXT NOT NULL DEFAULT 'auto';
    ALTER TABLE lanes ADD COLUMN undetermined_data TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE lanes ADD COLUMN started TEXT;
    CREATE INDEX lanes_owner_user ON lanes (owner_user_id);
    CREATE INDEX lanes_status ON lanes (status);
  `,
};
