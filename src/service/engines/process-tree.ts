/**
 * Process trees of engine runs: each run is started as its own process group (detached), so
 * that cancel and time limits end every descendant with one signal, and the group's CPU and
 * memory can be sampled (group-usage.ts) without knowing the engine's internals.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const PAGE_BYTES = 4096;

export interface ProcStat {
  pid: number;
  pgrp: number;
  ticks: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return null;
    return {
      pid,
      pgrp: Number(rest[2]),
      ticks: Number(rest[11]) + Number(rest[12]),
      rssBytes: Number(rest[21]) * PAGE_BYTES,
    };
  } catch {
    return null;
  }
}

/** A process's start time (clock ticks since boot), to tell it from a later one with its pid. */
export function processStartTicks(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

/** The live (non-zombie) processes of a process group. */
export function groupMembers(pgid: number): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const st = readStat(Number(e));
    if (st && st.pgrp === pgid) out.push(st);
  }
  return out;
}

/** Sends a signal to a whole process group; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const HAS_PROC = existsSync('/proc/self/stat');

/**
 * True while a process group has live members: from /proc where there is one (zombies do not
 * count), otherwise by signal 0 to the group (macOS and the BSDs), which a zombie still answers.
 */
export function groupAlive(pgid: number): boolean {
  if (HAS_PROC) return groupMembers(pgid).length > 0;
  return signalGroup(pgid, 0);
}

/** Ends a group: SIGTERM, then SIGKILL for whatever is left after `graceMs`. */
export async function killGroup(pgid: number, graceMs = 2000): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  signalGroup(pgid, 'SIGKILL');
}

/**
 * The group's keeper: a POSIX sh script that forks a watcher and then becomes the command
 * (exec keeps its pid, so the command is still the group leader with its own exit code and
 * pipes). The watcher holds none of the command's pipes; once a second it checks that the
 * service that started the run is still there (same pid, same start time). When it is gone
 * (crashed, killed with SIGKILL: it could not end the group itself) the watcher ends the whole
 * group, TERM then KILL, even if the leader already died and left descendants behind. Engines we
 * do not write (Snakemake, Nextflow, a lab's worker) are covered without their cooperation. While
 * the service lives, the watcher is ended with the rest of the group when the run ends.
 */
const GROUP_KEEPER = `leader=$$
parent=$1
shift
started() { sed 's/.*) //' /proc/$parent/stat 2>/dev/null | cut -d' ' -f20; }
start=$(started)
(
  while sleep 1; do
    now=$(started)
    [ -n "$now" ] && [ "$now" = "$start" ] && continue
    trap '' TERM
    kill -TERM -$leader 2>/dev/null
    sleep 2
    kill -KILL -$leader 2>/dev/null
    exit 0
  done
) </dev/null >/dev/null 2>&1 3>&- &
exec "$@"`;

/** Starts a command as the leader of a new process group that ends when this process ends. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  if (process.platform === 'win32') return spawn(command, args, { ...options, detached: true });
  return spawn('/bin/sh', ['-c', GROUP_KEEPER, 'laneway-group', String(process.pid), command, ...args], {
    ...options,
    detached: true,
  });
}
