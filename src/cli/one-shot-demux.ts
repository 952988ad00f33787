/**
 * `laneway demux` as a bundle of its own (out/cli/<build>/one-shot-demux.js, one file, no
 * chunks): laneway.mjs runs it instead of the command table. Labs run `laneway demux` once per
 * lane, and a start through the table loads index.js and then the command's twelve shared chunks,
 * one module at a time: some 8 ms more than this one file (docs/benchmarks.md, "One file for
 * demux"). The same command module and the same runCommand as the table's.
 */
import { demuxCommand } from './commands/demux';
import { DEMUX_USAGE } from './commands/one-shot-usage';
import { runCommand } from './run-command';

/** As index.ts's main, for `demux` only: argv starts with the command's name. */
export function main(argv: string[]): Promise<number> {
  return runCommand('demux', DEMUX_USAGE, demuxCommand, argv.slice(1));
}
