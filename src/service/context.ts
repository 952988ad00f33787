/**
 * What every feature module of the service receives: the database, the configuration, a
 * clock (tests drive time) and a logger. Areas add their own services to it as they arrive.
 */
import type { Db } from './db/database';
import type { ServiceLogFn } from './service-log';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface ServiceConfig {
  /** The folder that holds the database, secrets and stored files. */
  dataDir: string;
  host: string;
  port: number;
  /** SMTP URL for invitation e-mail; null keeps mail in the notification outbox only. */
  smtpUrl: string | null;
  /** Public origin when served behind TLS or a proxy; decides the cookie's Secure flag. */
  publicUrl: string | null;
}

export interface ServiceContext {
  db: Db;
  config: ServiceConfig;
  clock: Clock;
  /** A sentence, and for the events IT follows an `event` name and fields (docs/service-log.md). */
  log: ServiceLogFn;
  /** Closers run in reverse order on shutdown (workers, timers, subscriptions). */
  onClose(closer: () => Promise<void> | void): void;
}
