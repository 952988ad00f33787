/**
 * `laneway qc` as a bundle of its own (out/cli/<build>/one-shot-qc.js, one file), as
 * one-shot-demux.ts for demux: lab scripts run it once per FASTQ file, and through the table it
 * loaded index.js and the shared chunks (87 ms to its `--help` against 72 from this one file).
 */
import { qcCommand } from './commands/qc';
import { QC_USAGE } from './commands/one-shot-usage';
import { runCommand } from './run-command';

/** As index.ts's main, for `qc` only: argv starts with the command's name. */
export function main(argv: string[]): Promise<number> {
  return runCommand('qc', QC_USAGE, qcCommand, argv.slice(1));
}
