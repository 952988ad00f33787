/**
 * Shared by the reference-build tests (issue 24 item 6): a generated genome, the build's
 * processes found in /proc, and a way to hold a build running.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A FASTA of `n` sequences of `len` pseudo-random bases (generated, no file copied). */
export function fasta(n: number, len: number, seed: number): Buffer {
  let x = seed;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    parts.push(`>chr${i + 1}\n`);
    for (let j = 0; j < len; j += 60) {
      let line = '';
      for (let k = 0; k < 60 && j + k < len; k++) {
        x = (x * 1103515245 + 12345) >>> 0;
        line += 'ACGT'[x >>> 30];
      }
      parts.push(`${line}\n`);
    }
  }
  return Buffer.from(parts.join(''));
}

export interface BuildProcess {
  pid: number;
  /** The program running (the keeper's watcher is `/bin/sh`, the tool once exec'd is the tool). */
  program: string;
  ppid: number;
  pgrp: number;
  state: string;
}

/**
 * Live processes whose command line names `tool` and `within` (the service's data folder): the
 * tool itself and its group keeper's watcher, which carries the same command line.
 */
export function processes(tool: string, within: string): BuildProcess[] {
  const out: BuildProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!cmd.some((a) => a.endsWith(tool)) || !cmd.some((a) => a.includes(within))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z')
        out.push({ pid: Number(entry), program: cmd[0]!, state: state!, ppid: Number(ppid), pgrp: Number(pgrp) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Live (non-zombie) members of a process group. */
export function groupMembers(pgrp: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(group) === pgrp) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The build's tool, stopped with SIGSTOP once it runs. Indexing a test-sized genome takes about
 * a second here, so a test that wants to see it ended from outside holds it: a stopped process
 * cannot finish on its own, only a SIGKILL (or a SIGTERM and a SIGCONT) ends it. The tool is the
 * group's leader (the keeper execs it), so its pid is the group's id.
 */
export function holdLeader(tool: string, within: string): BuildProcess | null {
  const leader = processes(tool, within).find((p) => p.pid === p.pgrp && p.program.endsWith(tool));
  if (!leader) return null;
  process.kill(leader.pid, 'SIGSTOP');
  return leader;
}
