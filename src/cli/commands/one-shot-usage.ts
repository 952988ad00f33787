/**
 * The usage lines of the commands that also run from a bundle of their own (one-shot-*.ts):
 * the command table's, and those bundles', which do not load the table.
 */
export const DEMUX_USAGE =
  'demux --sheet SHEET --input R1 [--input2 R2] [--index1 I1 [--index2 I2]] --out DIR [--mismatches N[,M]]';

export const QC_USAGE = 'qc FILE [--json OUT] [--html OUT]';
