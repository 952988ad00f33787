/**
 * The line format of `service.log` (docs/service-log.md): one JSON object per line with `time`,
 * `level`, `event` and `msg` first, then the event's own fields. The service writes it, and the
 * desktop core appends its supervisor's lines to the same file, so both share this module.
 * Writes are synchronous appends of one line each (O_APPEND: two writers never interleave
 * inside a line) on a handle kept open, and the file is rotated past 10 MB keeping five older
 * files.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
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

/** Appends one line; `close` lets the file go (a writer reopens it at its next line). */
export type ServiceLogWrite = ((level: LogLevel, event: string, fields: LogFields, time?: Date) => void) & {
  close(): void;
};

/**
 * A writer that appends lines to one data folder's log and rotates it when it grows too big.
 * It keeps the file open (opening, writing and closing it per line was a measurable cost of a
 * busy service, issue 21) and, before each line, compares the file at the path with the one it
 * holds: when another writer (the desktop core's supervisor shares the file) has rotated or
 * removed it, the writer reopens the path, so lines after a rotation land in the new file. The
 * same stat tells the size with the other writer's lines.
 */
export function serviceLogWriter(dataDir: string, rotateBytes = SERVICE_LOG_ROTATE_BYTES): ServiceLogWrite {
  const path = serviceLogPath(dataDir);
  let fd = -1;
  let ino = -1;
  let size = 0;
  const close = (): void => {
    if (fd < 0) return;
    try {
      closeSync(fd);
    } catch {
      // Nothing to do about a handle that will not close.
    }
    fd = -1;
  };
  const open = (): void => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fd = openSync(path, 'a', 0o600);
    const st = fstatSync(fd);
    ino = st.ino;
    size = st.size;
  };
  const write = (level: LogLevel, event: string, fields: LogFields, time = new Date()): void => {
    // A log that cannot be written (disk full, permissions) must never take anything down.
    try {
      if (fd >= 0) {
        const st = statSync(path, { throwIfNoEntry: false });
        if (!st || st.ino !== ino) close();
        else size = st.size;
      }
      if (fd < 0) open();
      if (size > rotateBytes) {
        close();
        rotateServiceLog(path);
        open();
      }
      // O_APPEND: each line is one write at the end, whoever else appends.
      const line = Buffer.from(`${formatServiceLogLine(time, level, event, fields)}\n`);
      writeSync(fd, line);
      size += line.length;
    } catch {
      close();
    }
  };
  return Object.assign(write, { close });
}

/** Appends one line (the desktop core's supervisor, which writes rarely) and lets the file go. */
export function appendServiceLogLine(dataDir: string, event: string, level: LogLevel, fields: LogFields): void {
  const write = serviceLogWriter(dataDir);
  write(level, event, fields);
  write.close();
}
