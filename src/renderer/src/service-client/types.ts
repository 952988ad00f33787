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
import type { Pipeline, Sample } from '../../../shared/service-api';

export interface AccessFields {
  owner?: string | null;
  group_owner?: string | null;
  can_edit?: boolean;
  can_share?: boolean;
}

export interface Me {
  id: number;
  username: string;
  email: string;
  name: string;
  is_admin: boolean;
  can_run_pipelines: boolean;
  groups: Array<{ slug: string; name: string; role: string }>;
  invitations: Array<{ group: string; group_name?: string; invited_by: string | null; permission: string }>;
}

export interface Project extends AccessFields {
  id: number;
  name: string;
  sample_ids?: number[];
  samples?: Array<number | Sample>;
  created?: string;
}

export interface GroupMember {
  username: string;
  name?: string;
  email?: string;
  role: 'invited' | 'member' | 'admin';
  permission: 'view' | 'edit' | 'share';
}

export interface Group {
  slug: string;
  name: string;
  description?: string | null;
  role?: 'invited' | 'member' | 'admin';
  permission?: string;
  member_count?: number;
  members?: GroupMember[];
  pending_invitations?: Array<{ email: string; permission: string }>;
}

export interface ServiceNotification {
  id: number;
  kind?: string;
  subject?: string;
  message?: string;
  body?: string;
  created?: string;
  read?: boolean;
  data?: Record<string, unknown>;
}

/** The name of a pipeline's category (`{id, name}`). */
export function categoryName(c: Pipeline['category']): string {
  return c.name;
}
