/**
 * The service's log: every line goes to stderr (the terminal of `laneway serve`, or the desktop
 * app's) as a sentence and to `<data>/service.log` as one JSON object (the format is in
 * docs/service-log.md and src/node/service-log-line.ts), so that lab IT still finds it after
 * the terminal is gone and can filter it with jq. The file is rotated past 10 MB.
 */
import { serviceLogPath, serviceLogWriter, type LogFields, type LogLevel } from '../node/service-log-line';

export { serviceLogPath };

/** A log line's event name and level, and the event's own fields. */
export type ServiceLogFields = LogFields & { event?: string; level?: LogLevel };

export type ServiceLogFn = (message: string, fields?: ServiceLogFields) => void;

/** Plain messages without an event name: an INTERNAL one is an error, the rest notes. */
function levelOf(message: string, fields?: ServiceLogFields): LogLevel {
  if (fields?.level) return fields.level;
  return message.startsWith('INTERNAL') ? 'error' : 'info';
}

export function openServiceLog(dataDir: string): { log: ServiceLogFn; close: () => Promise<void> } {
  const write = serviceLogWriter(dataDir);
  return {
    log(message, fields) {
      process.stderr.write(`[service] ${message}\n`);
      const { event, level: _level, ...rest } = fields ?? {};
      write(levelOf(message, fields), event ?? 'note', { ...rest, msg: message });
    },
    close: async () => write.close(),
  };
}

/** Whole seconds from an ISO time to the clock's now (how long an upload or a run took), or null. */
export function secondsSince(ctx: { clock: { now(): number } }, iso: string | null | undefined): number | null {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? Math.max(0, Math.round((ctx.clock.now() - t) / 1000)) : null;
}
