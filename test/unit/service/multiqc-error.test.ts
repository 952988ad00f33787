/**
 * multiqcError: what a run's log and the on-demand report's refusal say when MultiQC fails.
 * The panel below is MultiQC 1.14's (Debian) usage error as it prints it on stdout; the
 * traceback's shape is Python's.
 */
import { describe, expect, it } from 'vitest';
import { multiqcError } from '../../../src/service/tools/multiqc/run-multiqc';

const failed = (extra: object = {}) => Object.assign(new Error('Command failed: multiqc --force x\nmore'), extra);

describe('multiqcError', () => {
  it("takes a usage error from rich-click's boxed panel on stdout, lines joined", () => {
    const stdout = [
      ' Usage: multiqc [OPTIONS] [ANALYSIS DIRECTORY]',
      '╭─ Error ──────────────────────────────────────╮',
      "│ Invalid value for '[ANALYSIS DIRECTORY]':    │",
      "│ Path '/runs/a b' does not exist.             │",
      '╰──────────────────────────────────────────────╯',
      '   ',
    ].join('\n');
    expect(multiqcError(stdout, '', failed({ code: 2 }))).toBe(
      "Invalid value for '[ANALYSIS DIRECTORY]': Path '/runs/a b' does not exist.",
    );
  });

  it("takes a crash's last line of stderr, trailing blank lines aside", () => {
    const stderr = 'Traceback (most recent call last):\n  File "x.py", line 1\nKeyError: \'total_reads\'\n\n';
    expect(multiqcError('', stderr, failed({ code: 1 }))).toBe("KeyError: 'total_reads'");
  });

  it('says the exit code or the signal when MultiQC said nothing, never the whole command line', () => {
    expect(multiqcError('', '', failed({ code: 3 }))).toBe('multiqc exited with code 3');
    expect(multiqcError('', '', failed({ signal: 'SIGKILL' }))).toBe('multiqc was stopped (SIGKILL)');
    expect(multiqcError('', '', failed())).toBe('Command failed: multiqc --force x');
  });
});
