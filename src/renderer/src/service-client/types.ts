/** The service's wire shapes as the screens use them (spec + design/API.md). */

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
}

/** The category name whether the service sends a string or `{id, name}`. */
export function categoryName(c: Pipeline['category']): string {
  return typeof c === 'string' ? c : c.name;
}
