/** The service's wire shapes as the screens use them (spec + design/API.md). */

// Accounts, groups, sharing, projects and notifications are defined once, in shared/service-api.
export type { Me, User } from '../../../shared/service-api/identity';
export type { GroupDetail, GroupMember, GroupSummary } from '../../../shared/service-api/groups';
export type { Notification as ServiceNotification } from '../../../shared/service-api/notifications';
export type { Project } from '../../../shared/service-api/projects';
export type { ResourcePermissions, ShareEntry } from '../../../shared/service-api/shares';

export interface Page<T> {
  count: number;
  page: number;
  per_page: number;
  items: T[];
}

export interface AccessFields {
  owner?: string | null;
  group_owner?: string | null;
  can_edit?: boolean;
  can_share?: boolean;
}

export interface DataRecord extends AccessFields {
  id: number;
  filename: string;
  size: number;
  data_type: string;
  checksum?: string;
  created?: string;
  path?: string | null;
}

export interface Sample extends AccessFields {
  id: number;
  name: string;
  metadata: Record<string, unknown>;
  read1?: number | DataRecord | null;
  read2?: number | DataRecord | null;
  data?: DataRecord[];
  created?: string;
  paired?: boolean;
  /** The lane it was demultiplexed from; null for reads uploaded as a sample. */
  lane_id?: number | null;
}

/** A lane's per-sample read counts (GET /api/lanes/{id}). */
export interface LaneSummary {
  id: number;
  name: string;
  status: string;
  samples: Array<{ name: string; sample_id: number | null; reads: number | null }>;
}

export type ParameterType = 'string' | 'integer' | 'float' | 'boolean' | 'choice' | 'file' | 'array';

export interface PipelineParameter {
  name: string;
  description?: string;
  type: ParameterType;
  default?: unknown;
  required?: boolean;
  choices?: string[];
  min?: number;
  max?: number;
  validation?: unknown;
}

export interface PipelineVersion {
  id: number;
  version: string;
  is_latest: boolean;
  can_run?: boolean;
  reason?: string | null;
  parameters?: PipelineParameter[];
  requirements?: { min_samples?: number; required_data_types?: string[]; supported_organisms?: string[] };
}

export interface Pipeline {
  id: number;
  name: string;
  description?: string;
  category: string | { id: number | string; name: string };
  versions: PipelineVersion[];
  upstream_pipelines?: Array<string | number | { id: number; name: string }>;
  estimated_runtime?: string;
}

export type ExecutionStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ProcessExecution {
  name: string;
  status: string;
  progress: number;
  start_time?: string | null;
  end_time?: string | null;
  exit_code?: number | null;
  resources?: { cpu_percent?: number | null; memory_gb?: number | null } | null;
}

export interface LogEntry {
  id?: number;
  timestamp: string;
  process: string;
  message: string;
  level: string;
}

export interface Execution extends AccessFields {
  id: number;
  name: string;
  status: ExecutionStatus;
  progress: number;
  created?: string;
  started?: string | null;
  duration?: number | null;
  pipeline?: { id?: number; name: string };
  pipeline_version?: { id?: number; version: string };
  samples?: Array<number | { id: number; name: string }>;
  parameters?: Record<string, unknown>;
  error?: string | null;
  /** The execution this one re-runs. */
  rerun_of?: number | null;
  resumes?: number;
  /** Whether the caller may re-run or resume it, and why not (the service decides). */
  rerun?: { allowed: boolean; reason: string | null };
  resume?: { allowed: boolean; reason: string | null };
  process_executions?: ProcessExecution[];
  outputs?: DataRecord[];
  logs?: LogEntry[];
  test_mode?: boolean;
  /** The execution whose outputs were this one's inputs. */
  upstream_execution?: number | null;
}

/** The category name whether the service sends a string or `{id, name}`. */
export function categoryName(c: Pipeline['category']): string {
  return typeof c === 'string' ? c : c.name;
}
