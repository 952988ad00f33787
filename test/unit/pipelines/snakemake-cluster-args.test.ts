import { describe, expect, it } from 'vitest';
import { snakemakeArgs } from '../../../src/service/engines/snakemake/snakemake-engine';
import { parseSnakemakeVersion } from '../../../src/service/engines/snakemake/snakemake-version';
import { checkResources } from '../../../src/service/engines/run-resources';
import type { EngineJobInput } from '../../../src/service/engines/engine';

const job = {
  executionId: 7,
  workDir: '/data/executions/7/work',
  cpus: 4,
  memoryGb: 8,
  queue: 'bio_long',
  timeLimitSeconds: 5400,
} as unknown as EngineJobInput;

describe("Snakemake 7, 8 and 9: a run's resources and the SLURM executor as Snakemake arguments", () => {
  it('reads the version line', () => {
    expect(parseSnakemakeVersion('7.21.0\n')).toEqual({ major: 7, text: '7.21.0' });
    expect(parseSnakemakeVersion('9.1.3')).toMatchObject({ major: 9 });
    expect(parseSnakemakeVersion('no version')).toBeNull();
  });

  it("gives every job the run's partition, CPUs, memory and time as resources", () => {
    const args = snakemakeArgs('/wf/Snakefile', job, '/c.json', { major: 7, text: '7.21.0' }, {});
    const at = args.indexOf('--default-resources');
    expect(args.slice(at + 1, at + 6)).toEqual([
      'cpus_per_task=4',
      'mem_mb=8192',
      'runtime=90',
      "queue='bio_long'",
      "slurm_partition='bio_long'",
    ]);
    expect(args).toContain('--log-handler-script');
    expect(args).not.toContain('--cluster');
  });

  it('submits with sbatch on Snakemake 7, with the SLURM executor on 8, and logs through the plugin on 9', () => {
    const env = { LANEWAY_SNAKEMAKE_EXECUTOR: 'slurm', LANEWAY_SNAKEMAKE_JOBS: '12' };
    const v7 = snakemakeArgs('/wf/Snakefile', job, '/c.json', { major: 7, text: '7.21.0' }, env);
    expect(v7[v7.indexOf('--cluster') + 1]).toBe(
      'sbatch --parsable --job-name=laneway-7-{rule} --cpus-per-task={resources.cpus_per_task} --partition={resources.slurm_partition} --mem={resources.mem_mb} --time={resources.runtime} --output=/data/executions/7/work/cluster-logs/slurm-%j.out',
    );
    expect(v7.slice(v7.indexOf('--jobs'), v7.indexOf('--jobs') + 2)).toEqual(['--jobs', '12']);
    const v8 = snakemakeArgs('/wf/Snakefile', job, '/c.json', { major: 8, text: '8.20.0' }, env);
    expect(v8.slice(v8.indexOf('--executor'), v8.indexOf('--executor') + 2)).toEqual(['--executor', 'slurm']);
    expect(v8).toContain('--log-handler-script');
    const v9 = snakemakeArgs('/wf/Snakefile', job, '/c.json', { major: 9, text: '9.1.0' }, env);
    expect(v9.slice(v9.indexOf('--logger'), v9.indexOf('--logger') + 2)).toEqual(['--logger', 'laneway']);
    expect(v9).not.toContain('--log-handler-script');
  });

  it("refuses a queue that is not a plain partition name (it reaches sbatch's command line)", () => {
    for (const queue of ['long; rm -rf /', "a'b", '', 'x'.repeat(65), '--partition=x y', '$(id)']) {
      const r = checkResources({ queue }, { cpus: 1 }, { cpus: 2, memoryGb: 4 }, true);
      expect(r.fields['resources.queue'], queue).toMatch(/queue name/);
    }
    expect(
      checkResources({ queue: 'gpu-a100.long' }, { cpus: 1 }, { cpus: 2, memoryGb: 4 }, true).resources?.queue,
    ).toBe('gpu-a100.long');
  });
});
