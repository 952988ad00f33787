/**
 * The Uploads table's filter (upload-list-filter.ts): newest first, by a piece of the path in any
 * case, and by state; counts by state for the chooser.
 */
import { describe, expect, it } from 'vitest';
import {
  filteredJobIds,
  jobStateCounts,
  NO_FILTER,
} from '../../../src/renderer/src/features/uploads/upload-list-filter';
import type { UploadJob } from '../../../src/shared/desktop-api/upload-schemas';

const job = (id: number, path: string, state: UploadJob['state']) =>
  ({ id, path, filename: path.split('/').pop(), state }) as UploadJob;

const jobs = Object.fromEntries(
  [
    job(1, '/runs/plate1/P0001_S1_L001_R1_001.fastq.gz', 'completed'),
    job(2, '/runs/plate1/P0002_S2_L001_R1_001.fastq.gz', 'failed'),
    job(12, '/runs/plate2/P0001_S1_L001_R1_001.fastq.gz', 'uploading'),
    job(3, '/runs/plate1/Undetermined_S0_L001_R1_001.fastq.gz', 'completed'),
  ].map((j) => [j.id, j]),
);

describe('filteredJobIds', () => {
  it('lists every job newest first without a filter', () => {
    expect(filteredJobIds(jobs, NO_FILTER)).toEqual([12, 3, 2, 1]);
  });

  it('finds a piece of the name or the folder, in any case, trimmed', () => {
    expect(filteredJobIds(jobs, { text: ' p0001_ ', state: '' })).toEqual([12, 1]);
    expect(filteredJobIds(jobs, { text: 'PLATE2', state: '' })).toEqual([12]);
    expect(filteredJobIds(jobs, { text: 'undetermined', state: '' })).toEqual([3]);
    expect(filteredJobIds(jobs, { text: 'nowhere', state: '' })).toEqual([]);
  });

  it('narrows by state, with the text or alone', () => {
    expect(filteredJobIds(jobs, { text: '', state: 'completed' })).toEqual([3, 1]);
    expect(filteredJobIds(jobs, { text: 'plate1', state: 'failed' })).toEqual([2]);
    expect(filteredJobIds(jobs, { text: 'plate2', state: 'failed' })).toEqual([]);
  });
});

describe('jobStateCounts', () => {
  it('counts the jobs in each state present', () => {
    expect(jobStateCounts(jobs)).toEqual({ completed: 2, failed: 1, uploading: 1 });
    expect(jobStateCounts({})).toEqual({});
  });
});
