/** The pipelines and pipeline_versions tables: stable ids for manifests, and workflow checksums. */
import type { Db } from '../db/database';

/** The id of a pipeline by name, registering the name the first time. */
export function registerPipeline(db: Db): (name: string) => number {
  const upsert = db.prepare('INSERT INTO pipelines (name) VALUES (?) ON CONFLICT(name) DO NOTHING');
  const byName = db.prepare<[string], { id: number }>('SELECT id FROM pipelines WHERE name = ?');
  return (name) => {
    upsert.run(name);
    return byName.get(name)!.id;
  };
}

/** The id of a pipeline's version by label, registering it the first time. */
export function registerVersion(db: Db): (pipelineId: number, version: string) => number {
  const upsert = db.prepare(
    'INSERT INTO pipeline_versions (pipeline_id, version) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const byLabel = db.prepare<[number, string], { id: number }>(
    'SELECT id FROM pipeline_versions WHERE pipeline_id = ? AND version = ?',
  );
  return (pipelineId, version) => {
    upsert.run(pipelineId, version);
    return byLabel.get(pipelineId, version)!.id;
  };
}

/** The checksum of a version's registered workflow copy, if one was made. */
export function storedWorkflowChecksum(db: Db, versionId: number): string | null | undefined {
  return db
    .prepare<[number], { workflow_checksum: string | null }>(
      'SELECT workflow_checksum FROM pipeline_versions WHERE id = ?',
    )
    .get(versionId)?.workflow_checksum;
}

/** Records the checksum of a version's workflow copy. */
export function setWorkflowChecksum(db: Db, versionId: number, checksum: string): void {
  db.prepare('UPDATE pipeline_versions SET workflow_checksum = ? WHERE id = ?').run(checksum, versionId);
}
