/**
 * The service schema's migrations, in order. Number ranges by area keep parallel work apart:
 * 1 base, 2-9 identity, 10-19 data, 20-29 pipelines and executions, 30-39 the execution
 * lifecycle (audit log, re-runs, webhooks).
 */
import { m001Base } from './001-base';
import { m010Data } from './010-data';
import { m011LaneDetails } from './011-lane-details';
import { m015LaneDemuxReport } from './015-lane-demux-report';
import { m020Pipelines } from './020-pipelines';
import { m025Provenance } from './025-provenance';
import { m026ReportData } from './026-report-data';
import { m035LaneAdapter } from './035-lane-adapter';
import { m036FlowPendingSheets } from './036-flow-pending-sheets';
import { m037IdsNeverReused } from './037-ids-never-reused';
import { m038UsageIndexes } from './038-usage-indexes';
import { m039UserDataBytes } from './039-user-data-bytes';
import type { Migration } from '../../../node/sqlite-migrations';
import { identityMigrations } from './identity';
import { lifecycleMigrations } from './lifecycle';

export type { Migration } from '../../../node/sqlite-migrations';

export const migrations: readonly Migration[] = [
  m001Base,
  ...identityMigrations,
  m010Data,
  m011LaneDetails,
  m015LaneDemuxReport,
  m020Pipelines,
  m025Provenance,
  m026ReportData,
  ...lifecycleMigrations,
  m035LaneAdapter,
  m036FlowPendingSheets,
  m037IdsNeverReused,
  m038UsageIndexes,
  m039UserDataBytes,
];
