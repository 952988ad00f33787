/**
 * The service's composition root: builds every long-lived part once, in dependency order,
 * and hands them to the modules through `ctx.parts`. Each part registers its closer on
 * `ctx.onClose` as it is built, and the server runs closers in reverse, so shutdown undoes
 * this file from the bottom up (the execution queue stops before the webhook deliverer,
 * which stops before mail). No module keeps a registry of its own (the architecture test
 * greps for one).
 */
import { GroupCommit } from './uploads/group-commit';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext, ServiceHooks, ServiceParts, StoreContext } from './context';
import { audit } from './audit/audit-log';
import { KEY_FAILURE_LIMITS } from './auth/api-key-verify';
import { claimInvitations } from './groups/invitations.commands';
import { AccountEvents } from './identity/account-events';
import { FailedSignInAudit } from './identity/failed-sign-in-audit';
import { SignInGuard } from './identity/sign-in-guard';
import { createFlowParts } from './flow/flow-parts';
import { FailureLimiter } from './auth/failure-limiter';
import { PendingRefreshTokens } from './auth/pending-refresh-tokens';
import { PasswordPool } from './identity/password-pool';
import { SheetParser } from './tools/demux/bounded-sheet-reader';
import { ReportViewTickets } from './data/report-view-tickets';
import { loadSigningSecret } from './auth/tokens';
import { createMailState } from './mail/mailer';
import { createPipelineService, startPipelineService } from './executions/execution-service';
import { WebhookDeliverer } from './webhooks/webhook-deliverer';

/** The cross-area hooks, wired once here (the service and the account CLI both use them). */
export function serviceHooks(): ServiceHooks {
  return {
    emailAdded: [claimInvitations],
    credentialRefused: [
      (ctx, r) =>
        audit(
          ctx,
          r.actor,
          'refused',
          { kind: r.kind, id: r.id, name: r.name },
          { reason: r.reason, address: r.address },
        ),
    ],
  };
}

/** Builds the parts over a storage context; the service's modules register after this. */
export function composeService(app: FastifyInstance, base: StoreContext): ServiceContext {
  // Filled field by field below; nothing reads a part before it is assigned here.
  const parts = {} as ServiceParts;
  const ctx: ServiceContext = { ...base, parts };
  parts.tokenSecret = loadSigningSecret(ctx.config.dataDir);
  const passwords = new PasswordPool();
  ctx.onClose(() => passwords.close());
  parts.passwords = passwords;
  const sheetParser = new SheetParser();
  ctx.onClose(() => sheetParser.close());
  parts.sheetParser = sheetParser;
  parts.pendingRefreshTokens = new PendingRefreshTokens();
  parts.signIn = new SignInGuard(ctx.clock);
  parts.failedSignIns = new FailedSignInAudit(ctx);
  parts.accountEvents = new AccountEvents();
  parts.apiKeyLimiter = new FailureLimiter(ctx.clock, KEY_FAILURE_LIMITS);
  parts.mail = createMailState(ctx);
  parts.groupCommit = new GroupCommit(ctx.db);
  parts.liveUploads = new Map();
  parts.lanes = new Map();
  parts.referenceBuilds = new Map();
  parts.multiqc = { building: 0 };
  parts.reportViews = new ReportViewTickets(ctx.clock);
  const webhooks = new WebhookDeliverer(ctx);
  ctx.onClose(() => webhooks.close());
  parts.webhooks = webhooks;
  parts.weblogReceivers = new Map();
  parts.pipelines = createPipelineService(app, ctx);
  parts.flow = createFlowParts(ctx);
  // Work a previous process left: deliveries to retry, executions it interrupted.
  webhooks.resumePending();
  startPipelineService(app, ctx, parts.pipelines);
  return ctx;
}
