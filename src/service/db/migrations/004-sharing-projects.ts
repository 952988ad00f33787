import type { Migration } from './index';

/**
 * Shares of any resource kind with a group, and projects (the first owned resource kind).
 * project_samples has no foreign key to samples: that table arrives with a later migration.
 */
export const m004SharingProjects: Migration = {
  version: 4,
  name: 'sharing-projects',
  up: `
    CREATE TABLE shares (
      kind TEXT NOT NULL,
      resource_id INTEGER NOT NULL,
      group_id INTEGER NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
      permission TEXT NOT NULL CHECK (permission IN ('view', 'edit', 'share')),
      PRIMARY KEY (kind, resource_id, group_id)
    ) STRICT;
    CREATE INDEX shares_group ON shares (group_id);

    CREATE TABLE projects (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL DEFAULT '',
      owner_user_id INTEGER REFERENCES users(id),
      owner_group_id INTEGER REFERENCES groups(id),
      created TEXT NOT NULL,
      updated TEXT NOT NULL,
      CHECK ((owner_user_id IS NULL) <> (owner_group_id IS NULL))
    ) STRICT;
    CREATE INDEX projects_owner_user ON projects (owner_user_id);
    CREATE INDEX projects_owner_group ON projects (owner_group_id);

    CREATE TABLE project_samples (
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      sample_id INTEGER NOT NULL,
      PRIMARY KEY (project_id, sample_id)
    ) STRICT;
  `,
};
