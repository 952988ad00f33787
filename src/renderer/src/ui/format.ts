/** Formatting of bytes, durations, rates and times for display. */

/** `1.5 MB`; decimal units as instruments and disks report them. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** `1 h 02 min`, `3 min 05 s`, `12 s`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h) return `${h} h ${String(m).padStart(2, '0')} min`;
  if (m) return `${m} min ${String(r).padStart(2, '0')} s`;
  return `${r} s`;
}

/** Local date and time of an ISO timestamp. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** ISO timestamps inside prose (older service notices say "completed at 2026-…Z") in local time. */
export function humaniseTimes(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g, (iso) =>
    formatTime(iso),
  );
}

/**
 * A transfer rate in the unit the technician thinks in: Mbit/s when they typed a limit in
 * Mbit/s (so a 2 Mbit/s limit reads "2.0 Mbit/s", not "0.25 MB/s"), else bytes per second.
 */
export function formatRate(bytesPerSecond: number | null | undefined, unit: 'bytes' | 'mbit' = 'bytes'): string {
  if (bytesPerSecond === null || bytesPerSecond === undefined || !Number.isFinite(bytesPerSecond)) return '—';
  if (unit === 'mbit') {
    const mbit = (bytesPerSecond * 8) / 1e6;
    return `${mbit < 10 ? mbit.toFixed(1) : Math.round(mbit)} Mbit/s`;
  }
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** "1 row", "2 rows": a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
