/**
 * The service's log: every line goes to stderr (the terminal of `laneway serve`, or the desktop
 * app's) and, timestamped, to `<data>/service.log`, so that lab IT still finds it after the
 * terminal is gone. The file is rotated once at start when it has grown past 10 MB.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROTATE_BYTES = 10 * 1024 * 1024;

export function serviceLogPath(dataDir: string): string {
  return join(dataDir, 'service.log');
}

export function openServiceLog(dataDir: string): { log: (message: string) => void; close: () => Promise<void> } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = serviceLogPath(dataDir);
  if (existsSync(path) && statSync(path).size > ROTATE_BYTES) renameSync(path, `${path}.1`);
  const file = createWriteStream(path, { flags: 'a', mode: 0o600 });
  // A log that cannot be written (disk full, permissions) must never take the service down.
  file.on('error', () => {});
  return {
    log(message) {
      process.stderr.write(`[service] ${message}\n`);
      if (file.writable) file.write(`${new Date().toISOString()} ${message}\n`);
    },
    close: () => new Promise<void>((resolve) => file.end(resolve)),
  };
}
