import { describe, expect, it } from 'vitest';
import { nextflowArgs } from '../../../src/service/engines/nextflow/nextflow-engine';

const job = {
  executionId: 7,
  workDir: '/w',
  serviceUrl: 'http://127.0.0.1:9',
  callbackSecret: 's3',
} as never;

describe('resume reaches Nextflow as -resume (Nextflow is not installable here: arguments only)', () => {
  it('adds -resume once to a resumed run, in the same launch and work folders', () => {
    const resumed = nextflowArgs(
      { workflow: '/pipelines/vc/main.nf' },
      { ...(job as object), resume: true } as never,
      '/w/params.json',
      {},
    );
    expect(resumed.filter((a) => a === '-resume')).toHaveLength(1);
    expect(resumed.slice(resumed.indexOf('-work-dir'), resumed.indexOf('-work-dir') + 2)).toEqual([
      '-work-dir',
      '/w/work',
    ]);
  });

  it('leaves a fresh run without it', () => {
    expect(nextflowArgs({ workflow: '/pipelines/vc/main.nf' }, job, '/w/params.json', {})).not.toContain('-resume');
  });
});
