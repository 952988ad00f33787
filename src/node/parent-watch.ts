/**
 * Children of ours end when their parent ends, however it ends. A parent that exits cleanly
 * stops its children itself; one that crashes or is killed with SIGKILL cannot, and the child is
 * re-parented (to init or a subreaper) and would run on, holding the database, a port or CPUs.
 * So a child started by one of our processes watches for that: the starter puts its own pid in
 * LANEWAY_PARENT_PID, and the child polls its current parent pid (Node reads it live) and, when
 * it has an IPC channel, listens for `disconnect`.
 *
 * Only processes started with the variable watch: `laneway serve` run from a shell under nohup
 * or systemd keeps running when that shell goes away.
 */

export const PARENT_PID_ENV = 'LANEWAY_PARENT_PID';

/** The environment entry a starter adds so that its child watches it. */
export function parentWatchEnv(): Record<string, string> {
  return { [PARENT_PID_ENV]: String(process.pid) };
}

/**
 * Calls `onGone` once when the parent named by LANEWAY_PARENT_PID is no longer this process's
 * parent. Returns a function that stops watching. The variable is removed from this process's
 * environment so that our own children never inherit a grandparent's pid.
 */
export function watchParent(onGone: (reason: string) => void, intervalMs = 500): () => void {
  const raw = process.env[PARENT_PID_ENV];
  delete process.env[PARENT_PID_ENV];
  const expected = Number(raw);
  if (!raw || !Number.isInteger(expected) || expected <= 0) return () => {};
  let done = false;
  const fire = (reason: string) => {
    if (done) return;
    done = true;
    stop();
    onGone(reason);
  };
  // Already orphaned between spawn and this call.
  if (process.ppid !== expected) {
    queueMicrotask(() => fire(`parent ${expected} is gone`));
    return () => {};
  }
  const timer = setInterval(() => {
    if (process.ppid !== expected) fire(`parent ${expected} is gone`);
  }, intervalMs);
  timer.unref();
  const onDisconnect = () => fire('parent disconnected');
  if (process.send) process.once('disconnect', onDisconnect);
  function stop() {
    clearInterval(timer);
    process.off('disconnect', onDisconnect);
  }
  return stop;
}
