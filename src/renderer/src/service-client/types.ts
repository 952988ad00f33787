/**
 * The service's wire shapes as the screens use them (spec + design/API.md). The areas already
 * on the shared API (src/shared/service-api) are its Static types, re-exported here under the
 * names the screens know.
 */
export type {
  DataRecord,
  Execution,
  ExecutionStatus,
  LogEntry,
  PageOf as Page,
  Pipeline,
  PipelineParameter,
  PipelineVersion,
  ProcessExecution,
  Sample,
  Lane as LaneSummary,
} from '../../../shared/service-api';
import type { Pipeline } from '../../../shared/service-api';

// Accounts, groups, sharing, projects and notifications.
export type { Me, User } from '../../../shared/service-api/identity';
export type { GroupDetail, GroupMember, GroupSummary } from '../../../shared/service-api/groups';
export type { Notification as ServiceNotification } from '../../../shared/service-api/notifications';
export type { Project } from '../../../shared/service-api/projects';
export type { ResourcePermissions, ShareEntry } from '../../../shared/service-api/shares';

/** The name of a pipeline's category (`{id, name}`). */
export function categoryName(c: Pipeline['category']): string {
  return c.name;
}
