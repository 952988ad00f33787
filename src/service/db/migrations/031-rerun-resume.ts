import type { Migration } from './index';

/**
 * Re-runs and resumes. A re-run is a new execution that names the one it repeats
 * (`rerun_of`); a resume continues the same execution on its kept work folder, so it only
 * counts how often that happened (`resumes`, also what tells the runner not to wipe the folder).
 */
export const m031RerunResume: Migration = {
  version: 31,
  name: 're-runs and resumes',
  up: `
    ALTER TABLE executions ADD COLUMN rerun_of INTEGER NULL REFERENCES executions(id);
    ALTER TABLE executions ADD COLUMN resumes INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX executions_rerun_of ON executions (rerun_of) WHERE rerun_of IS NOT NULL;
  `,
};
