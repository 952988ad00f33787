/**
 * What every feature module of the service receives: the database, the configuration, a
 * clock (tests drive time), a logger, and the long-lived parts the composition root
 * (`services.ts`) builds once in dependency order. Modules read those parts from here; no
 * module keeps a registry of its own.
 */
import type { GroupCommit } from './uploads/group-commit';
import type { Db } from './db/database';
import type { LiveUpload } from './uploads/upload-live';
import type { MailState } from './mail/mailer';
import type { PipelineService } from './executions/execution-service';
import type { RunningLane } from './lanes/lane-runner';
import type { WebhookDeliverer } from './webhooks/webhook-deliverer';
import type { AccountEvents } from './identity/account-events';
import type { FailureLimiter } from './auth/failure-limiter';
import type { PendingRefreshTokens } from './auth/pending-refresh-tokens';
import type { PasswordPool } from './identity/password-pool';
import type { SheetParser } from './tools/demux/bounded-sheet-reader';
import type { ReportViewTickets } from './data/report-view-tickets';
import type { FlowParts } from './flow/flow-parts';
import type { WeblogReceivers } from './engines/nextflow/nextflow-weblog';
import type { SignInGuard } from './identity/sign-in-guard';
import type { FailedSignInAudit } from './identity/failed-sign-in-audit';
import type { ServiceLogFn } from './service-log';

export interface Clock {
  now(): number;
  /**
   * Runs `fn` once after `ms` (a real timer when absent); answers its canceller. Tests pass a
   * clock that fires it when they decide, so nothing waits out a grace period.
   */
  after?(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = { now: () => Date.now() };

/** `clock.after`, or a real, unref'd timer. */
export function runAfter(clock: Clock, ms: number, fn: () => void): () => void {
  if (clock.after) return clock.after(ms, fn);
  const t = setTimeout(fn, ms);
  t.unref();
  return () => clearTimeout(t);
}

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

/**
 * The database, configuration, clock and logger: all that storage-level commands need (the
 * account CLI works on this alone, without starting the service's long-lived parts).
 */
export interface StoreContext {
  db: Db;
  /** Cross-area effects, wired in the composition root (`serviceHooks`). */
  hooks: ServiceHooks;
  config: ServiceConfig;
  clock: Clock;
  /** A sentence, and for the events IT follows an `event` name and fields (docs/service-log.md). */
  log: ServiceLogFn;
  /** Closers run in reverse order on shutdown (workers, timers, subscriptions). */
  onClose(closer: () => Promise<void> | void): void;
}

/**
 * Effects one area has on another, carried by hooks the composition root wires, so that an
 * area never imports one beside it (the floors rule in eslint.config.js).
 */
export interface ServiceHooks {
  /** An account gained an e-mail address (created, or its address changed), inside that transaction: groups turn the pending invitations to that address into the account's own. */
  emailAdded: Array<(ctx: StoreContext, userId: number, email: string) => void>;
  /** A credential other than a password was refused (the audit log records it). */
  credentialRefused: Array<(ctx: StoreContext, refusal: CredentialRefusal) => void>;
}

/** A refused credential, as the auth floor reports it. */
export interface CredentialRefusal {
  /** The credential's owner when the presented value names one, else null. */
  actor: { id: number; username: string } | null;
  kind: 'api_key';
  id: number | null;
  name: string | null;
  reason: string;
  address: string;
}

/** The service's long-lived parts, built once by `composeService` in this order. */
export interface ServiceParts {
  /** This installation's token-signing secret (`jwt-secret.key`, mode 0600). */
  tokenSecret: Uint8Array;
  /** Password hashing on threads of its own (never libuv's, which file I/O needs). */
  passwords: PasswordPool;
  /** Users' sheets read and lane sheets planned on a thread of their own, one at a time, bounded. */
  sheetParser: SheetParser;
  /** Refresh tokens issued while the disk was full, until they can be written. */
  pendingRefreshTokens: PendingRefreshTokens;
  /** Password sign-in: the slow-down per username and address, the unknown-name budget. */
  signIn: SignInGuard;
  /** Failed sign-ins, summed per username and address, written to the audit log once a minute. */
  failedSignIns: FailedSignInAudit;
  /** Account changes announced to long-lived holders (GraphQL sockets). */
  accountEvents: AccountEvents;
  /** Refused API keys per address (10 in 15 minutes, then 429). */
  apiKeyLimiter: FailureLimiter;
  /** Outgoing mail: the SMTP transport (or none) and the sends in flight. */
  mail: MailState;
  /** The records of files that arrive whole, committed together per turn of the event loop. */
  groupCommit: GroupCommit;
  /** Uploads with chunks in flight, by upload id (rebuilt from disk after a restart). */
  liveUploads: Map<number, LiveUpload>;
  /** Lanes being demultiplexed now, by lane id. */
  lanes: Map<number, RunningLane>;
  /** Reference index builds in progress, by the reference's checksum (a second run waits for the first's). */
  referenceBuilds: Map<string, Promise<void>>;
  /** MultiQC reports being built right now (bounded). */
  multiqc: { building: number };
  /** Short-lived tickets that open an HTML report in the app's sandboxed frame, with their expiry. */
  reportViews: ReportViewTickets;
  /** Signed webhook deliveries with their retries. */
  webhooks: WebhookDeliverer;
  /** Nextflow runs' weblog receivers by their execution's secret (the weblog route feeds them). */
  weblogReceivers: WeblogReceivers;
  /** The pipeline catalogue, the execution event bus and the execution queue. */
  pipelines: PipelineService;
  /** The Flow mount's multiplexed uploads in assembly (its pending sheets are rows: flow-sheets.store.ts). */
  flow: FlowParts;
}

export interface ServiceContext extends StoreContext {
  parts: ServiceParts;
}
