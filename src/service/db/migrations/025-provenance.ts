import type { Migration } from './index';

/**
 * Provenance of runs: the checksum of the workflow copy a version owns, and per execution the
 * workflow checksum and the tool versions it ran with (JSON object, program to version line).
 */
export const m025Provenance: Migration = {
  version: 25,
  name: 'provenance',
  up: `
    ALTER TABLE pipeline_versions ADD COLUMN workflow_checksum TEXT;
    ALTER TABLE executions ADD COLUMN workflow_checksum TEXT;
    ALTER TABLE executions ADD COLUMN tool_versions TEXT;
  `,
};
