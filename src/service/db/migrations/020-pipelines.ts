import type { Migration } from './index';

/**
 * Pipelines and executions. Pipelines and versions are defined by manifests; these tables only
 * give them stable integer ids across restarts (executions refer to them). An execution keeps
 * the pipeline's name and version label too, so it stays readable if a manifest goes away.
 */
export const m020Pipelines: Migration = {
  version: 20,
  name: 'pipelines and executions',
  up: `
    CREATE TABLE pipelines (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE
    ) STRICT;

    CREATE TABLE pipeline_versions (
      id INTEGER PRIMARY KEY,
      pipeline_id INTEGER NOT NULL REFERENCES pipelines(id),
      version TEXT NOT NULL,
      UNIQUE (pipeline_id, version)
    ) STRICT;

    CREATE TABLE executions (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      pipeline_id INTEGER NOT NULL REFERENCES pipelines(id),
      version_id INTEGER NOT NULL REFERENCES pipeline_versions(id),
      pipeline_name TEXT NOT NULL,
      version_label TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
      progress REAL NOT NULL DEFAULT 0,
      priority INTEGER NOT NULL DEFAULT 1,
      parameters TEXT NOT NULL DEFAULT '{}',
      metadata TEXT NOT NULL DEFAULT '{}',
      resources TEXT NOT NULL DEFAULT '{}',
      test_mode INTEGER NOT NULL DEFAULT 0,
      upstream_execution_id INTEGER NULL REFERENCES executions(id),
      error TEXT NULL,
      created TEXT NOT NULL,
      started TEXT NULL,
      finished TEXT NULL,
      callback_secret TEXT NOT NULL,
      process_groups TEXT NOT NULL DEFAULT '[]',
      owner_user_id INTEGER NULL REFERENCES users(id),
      owner_group_id INTEGER NULL REFERENCES groups(id)
    ) STRICT;
    CREATE INDEX executions_queue ON executions (status, priority DESC, id);

    CREATE TABLE execution_samples (
      execution_id INTEGER NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
      sample_id INTEGER NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (execution_id, sample_id)
    ) STRICT;
    CREATE INDEX execution_samples_sample ON execution_samples (sample_id);

    CREATE TABLE process_executions (
      id INTEGER PRIMARY KEY,
      execution_id INTEGER NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      progress REAL NOT NULL DEFAULT 0,
      start_time TEXT NULL,
      end_time TEXT NULL,
      exit_code INTEGER NULL,
      cpu_percent REAL NULL,
      memory_gb REAL NULL,
      UNIQUE (execution_id, name)
    ) STRICT;

    CREATE TABLE execution_logs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      execution_id INTEGER NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
      timestamp TEXT NOT NULL,
      process TEXT NOT NULL,
      level TEXT NOT NULL,
      message TEXT NOT NULL
    ) STRICT;
    CREATE INDEX execution_logs_cursor ON execution_logs (execution_id, id);
  `,
};
