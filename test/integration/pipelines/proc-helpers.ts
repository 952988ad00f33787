/** Finding test processes in /proc: by a marker in their command line, and by process group. */
import { readdirSync, readFileSync } from 'node:fs';

function stat(pid: string): { pgrp: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, pgrp: Number(rest[2]) };
  } catch {
    return null;
  }
}

/** Live processes whose command line contains `marker`, with their process group. */
export function processesWith(marker: string): Array<{ pid: number; pgrp: number }> {
  const out: Array<{ pid: number; pgrp: number }> = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    const st = stat(pid);
    if (cmd.includes(marker) && st && st.state !== 'Z' && Number(pid) !== process.pid)
      out.push({ pid: Number(pid), pgrp: st.pgrp });
  }
  return out;
}

/** Live (non-zombie) members of a process group. */
export function groupAlive(pgrp: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      const st = stat(pid);
      return st !== null && st.pgrp === pgrp && st.state !== 'Z';
    })
    .map(Number);
}

/** Polls until `check` returns true or the time is up. */
export async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
