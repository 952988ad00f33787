/**
 * Which Snakemake this machine has, asked once: 7 (Debian 12) and 8 report through a
 * `--log-handler-script`; 9 replaced that option with logger plugins (`--logger NAME`).
 * Cluster flags differ too: 7 submits with `--cluster`, 8 and later with `--executor`.
 */
import { execFile } from 'node:child_process';

export interface SnakemakeVersion {
  major: number;
  text: string;
}

let cached: Promise<SnakemakeVersion> | null = null;

/** Parses `snakemake --version` output ("7.21.0"). */
export function parseSnakemakeVersion(text: string): SnakemakeVersion | null {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? { major: Number(m[1]), text: m[0] } : null;
}

/** The installed Snakemake's version (7 assumed when it cannot tell: the oldest we support). */
export function snakemakeVersion(): Promise<SnakemakeVersion> {
  cached ??= new Promise((resolve) => {
    execFile('snakemake', ['--version'], { encoding: 'utf8', timeout: 30_000 }, (_err, stdout) => {
      resolve(parseSnakemakeVersion(stdout ?? '') ?? { major: 7, text: 'unknown' });
    });
  });
  return cached;
}

/** True when this Snakemake reads a --log-handler-script (before 9). */
export function usesLogHandlerScript(v: SnakemakeVersion): boolean {
  return v.major < 9;
}
