/**
 * Each pipeline version owns an immutable copy of its workflow: at first registration the
 * workflow's folder is copied into the data folder and its checksum stored with the version.
 * Runs use the copy, so editing a shipped Snakefile cannot change what an existing version
 * does. A source that differs from the registered checksum is reported (publish a new version
 * instead), and a copy that no longer matches its checksum is refused.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { Db } from '../db/database';
import { setWorkflowChecksum, storedWorkflowChecksum } from './pipelines.store';

/** Folders a workflow engine writes into its source tree; never part of the checksum. */
const SKIP = new Set(['.snakemake', '__pycache__', '.nextflow', 'work']);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

/** sha256 over a folder's files: each relative path and its bytes, in path order. */
export function folderChecksum(dir: string): string {
  const hash = createHash('sha256');
  for (const file of files(dir)) {
    const bytes = readFileSync(file);
    hash.update(`${relative(dir, file)}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

export interface OwnedWorkflow {
  /** The workflow file inside the version's copy (what runs). */
  path: string;
  checksum: string;
  /** Why the version cannot run (a tampered copy), or null. */
  problem: string | null;
  /** A note for the log: the shipped source changed after registration. */
  sourceChanged: string | null;
}

/** Where the copy of a version's workflow lives. */
export function workflowCopyDir(dataDir: string, versionId: number): string {
  return join(dataDir, 'workflows', String(versionId));
}

/**
 * The copy a version runs: made (and its checksum stored) on first registration; afterwards
 * checked against the stored checksum.
 */
export function ownWorkflow(db: Db, dataDir: string, versionId: number, source: string, label: string): OwnedWorkflow {
  const copyDir = workflowCopyDir(dataDir, versionId);
  const path = join(copyDir, basename(source));
  const stored = storedWorkflowChecksum(db, versionId);
  if (!stored) {
    rmSync(copyDir, { recursive: true, force: true });
    cpSync(dirname(source), copyDir, { recursive: true, filter: (src) => !SKIP.has(basename(src)) });
    const checksum = folderChecksum(copyDir);
    setWorkflowChecksum(db, versionId, checksum);
    return { path, checksum, problem: null, sourceChanged: null };
  }
  const problem = copyProblem(copyDir, stored, label);
  const sourceSum = existsSync(source) ? folderChecksum(dirname(source)) : null;
  const sourceChanged =
    sourceSum !== null && sourceSum !== stored
      ? `${label}: the workflow at ${dirname(source)} changed since this version was registered (sha256 ${stored.slice(0, 12)}, now ${sourceSum.slice(0, 12)}); the version keeps running its registered copy — publish the change as a new version`
      : null;
  return { path, checksum: stored, problem, sourceChanged };
}

/** Null when the copy still has its stored checksum, else why the version is refused. */
export function copyProblem(copyDir: string, stored: string, label: string): string | null {
  if (!existsSync(copyDir)) return `The registered workflow copy of ${label} is missing (${copyDir})`;
  const now = folderChecksum(copyDir);
  return now === stored
    ? null
    : `The workflow copy of ${label} was changed after registration (sha256 ${stored.slice(0, 12)}, now ${now.slice(0, 12)}); refused`;
}
