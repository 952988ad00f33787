import type { Migration } from './index';

/**
 * What a lane records beyond migration 11 for every barcode design: index reads given as files
 * (I1/I2), the read that carries inline barcodes, the mismatches per segment (i7 and i5, or 5'
 * and 3'), and the demultiplexing report (undetermined fraction, top unknown barcodes with their
 * nearest sample, index hopping, the likely cause when most reads are undetermined).
 */
export const m015LaneDemuxReport: Migration = {
  version: 15,
  name: 'lane-demux-report',
  up: `
    ALTER TABLE lanes ADD COLUMN index1_id INTEGER REFERENCES data_files(id);
    ALTER TABLE lanes ADD COLUMN index2_id INTEGER REFERENCES data_files(id);
    ALTER TABLE lanes ADD COLUMN barcode_read INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE lanes ADD COLUMN segment_mismatches TEXT;
    ALTER TABLE lanes ADD COLUMN report TEXT;
  `,
};
