/**
 * The line format of `service.log` (docs/service-log.md): one JSON object per line with `time`,
 * `level`, `event` and `msg` first, then the event's own fields. The service writes it, and the
 * desktop core appends its supervisor's lines to the same file, so both share this module.
 * Writes are synchronous appends of one line each (O_APPEND: two writers never interleave
 * inside a line), and the file is rotated past 10 MB keeping five older files.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SERVICE_LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** How many rotated files (`service.log.1` … `.5`) are kept. */
export const SERVICE_LOG_KEEP = 5;

export type LogLevel = 'info' | 'warn' | 'error';

/** The event's own fields; `msg` is the sentence a person reads. */
export type LogFields = { msg?: string } & Record<string, unknown>;

export function serviceLogPath(dataDir: string): string {
  return join(dataDir, 'service.log');
}

/** One line of the log (without the newline). */
export function formatServiceLogLine(time: Date, level: LogLevel, event: string, fields: LogFields): string {
  const { msg, ...rest } = fields;
  return JSON.stringify({ time: time.toISOString(), level, event, msg: msg ?? event, ...rest });
}

/** Moves `service.log` to `.1` (and `.1` to `.2` …), dropping the oldest. */
export function rotateServiceLog(path: string, keep = SERVICE_LOG_KEEP): void {
  rmSync(`${path}.${keep}`, { force: true });
  for (let n = keep - 1; n >= 1; n--) if (existsSync(`${path}.${n}`)) renameSync(`${path}.${n}`, `${path}.${n + 1}`);
  if (existsSync(path)) renameSync(path, `${path}.1`);
}

/** A writer that appends lines to one data folder's log and rotates it when it grows too big. */
export function serviceLogWriter(dataDir: string, rotateBytes = SERVICE_LOG_ROTATE_BYTES) {
  const path = serviceLogPath(dataDir);
  let size = -1;
  return (level: LogLevel, event: string, fields: LogFields, time = new Date()): void => {
    // A log that cannot be written (disk full, permissions) must never take anything down.
    try {
      if (size < 0) {
        mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        size = existsSync(path) ? statSync(path).size : 0;
      }
      if (size > rotateBytes) {
        rotateServiceLog(path);
        size = 0;
      }
      const line = `${formatServiceLogLine(time, level, event, fields)}\n`;
      appendFileSync(path, line, { mode: 0o600 });
      size += Buffer.byteLength(line);
    } catch {
      size = -1;
    }
  };
}

/** Appends one line (the desktop core's supervisor, which writes rarely). */
export function appendServiceLogLine(dataDir: string, event: string, level: LogLevel, fields: LogFields): void {
  serviceLogWriter(dataDir)(level, event, fields);
}
