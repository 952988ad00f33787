/** `laneway demux`'s usage line: the command table's, and its one-shot bundle's (one-shot-demux.ts). */
export const DEMUX_USAGE =
  'demux --sheet SHEET --input R1 [--input2 R2] [--index1 I1 [--index2 I2]] --out DIR [--mismatches N[,M]]';
