/**
 * MultiQC on demand over a project's or a lane's samples: Debian's `multiqc` over the outputs
 * of the completed executions on those samples, stored as a data record (data type multiqc,
 * source report) the caller owns and downloads like any other.
 *
 * What goes in follows the derived-data policy: only samples the caller may see, and of their
 * executions' outputs only the records the caller may view themselves (sharing a sample or an
 * execution does not share its outputs). Per pipeline and sample, the newest completed
 * execution counts, so a re-run replaces its predecessor instead of appearing twice. Only the
 * small metric files MultiQC reads are copied (fastp-layout JSON from Laneway QC, samtools
 * flagstat and markdup, bcftools stats), never reads or alignments.
 */
import { asReportText, scrubReport } from '../engines/multiqc-text';
import { makeReportOffline } from '../engines/multiqc-offline';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { blobPath } from '../data/content-blobs';
import { createDataRecord } from '../data/data.commands';
import { getDataRow, type DataRow } from '../data/data.store';
import { ApiError } from '../http/api-error';
import type { AuthUser } from '../auth/authenticate';
import { onPath } from '../engines/tool-check';
import { canReadData, canSeeSample } from '../policy/derived-data';
import { ownerFor } from '../policy/policy';
import { audit } from '../audit/audit-log';
import { sampleOutputs, type ReportSampleRow } from './reports.store';

/** Output data types MultiQC's modules read (see output-files.ts and the QC worker). */
export const MULTIQC_INPUT_TYPES = ['fastp_json', 'flagstat', 'text'] as const;
/** Metric files are small; anything larger is not one (and is not copied). */
const MAX_INPUT_BYTES = 64 << 20;
const TIMEOUT_MS = 10 * 60_000;
/** Reports built at once per service: each is a MultiQC process; more wait for a retry (429). */
const MAX_AT_ONCE = 2;

export interface MultiqcScope {
  kind: 'project' | 'lane';
  id: number;
  name: string;
  samples: ReportSampleRow[];
}

export interface MultiqcReportResult {
  record: DataRow;
  samples: ReportSampleRow[];
  executions: number[];
  inputs: number;
}

/** A folder name for a pipeline that is safe on every OS. */
function folderFor(pipeline: string): string {
  return pipeline.replace(/[^A-Za-z0-9._-]+/g, '_') || 'pipeline';
}

function runMultiqc(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('multiqc', args, { timeout: TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      const last = String(stderr).trim().split('\n').at(-1);
      reject(new ApiError('CONFLICT', `MultiQC failed: ${last || err.message}`));
    });
  });
}

/**
 * Builds and stores the report; throws CONFLICT when multiqc is missing or finds nothing, and
 * RATE_LIMITED while MAX_AT_ONCE reports are being built.
 */
export async function buildMultiqcReport(
  ctx: ServiceContext,
  user: AuthUser,
  scope: MultiqcScope,
  options: { title?: string; groupOwner?: string | null } = {},
): Promise<MultiqcReportResult> {
  const owner = ownerFor(ctx.db, user, options.groupOwner);
  if (!onPath('multiqc')) throw new ApiError('CONFLICT', 'multiqc is not installed on this service');
  const builds = ctx.parts.multiqc;
  if (builds.building >= MAX_AT_ONCE) {
    throw new ApiError('RATE_LIMITED', `${builds.building} MultiQC reports are being built; try again in a minute`);
  }
  builds.building += 1;
  try {
    return await build(ctx, user, scope, owner, options.title);
  } finally {
    builds.building -= 1;
  }
}

async function build(
  ctx: ServiceContext,
  user: AuthUser,
  scope: MultiqcScope,
  owner: ReturnType<typeof ownerFor>,
  titleOption: string | undefined,
): Promise<MultiqcReportResult> {
  const samples = scope.samples.filter((s) => canSeeSample(ctx.db, s.id, user));
  const names = new Map(samples.map((s) => [s.id, s.name]));
  const candidates = sampleOutputs(
    ctx.db,
    samples.map((s) => s.id),
    MULTIQC_INPUT_TYPES,
  ).filter((o) => o.size <= MAX_INPUT_BYTES && canReadData(ctx.db, o.id, user));
  // Newest completed execution per pipeline and sample (rows come newest first).
  const chosen = new Map<string, number>();
  for (const o of candidates) {
    const key = `${o.pipeline_name}\u0000${o.sample_id}`;
    if (!chosen.has(key)) chosen.set(key, o.execution_id);
  }
  const inputs = candidates.filter((o) => chosen.get(`${o.pipeline_name}\u0000${o.sample_id}`) === o.execution_id);
  if (inputs.length === 0) {
    throw new ApiError(
      'CONFLICT',
      `No output MultiQC reads among the completed executions of this ${scope.kind}'s samples that you may view ` +
        '(run quality control, Read Alignment or Variant Calling on them first)',
    );
  }
  const root = join(ctx.config.dataDir, 'reports-work');
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, `${scope.kind}-${scope.id}-`));
  try {
    const inDir = join(work, 'in');
    for (const o of inputs) {
      // One folder per execution keeps two pipelines' files of one name apart.
      const dir = join(inDir, folderFor(o.pipeline_name), String(o.execution_id));
      mkdirSync(dir, { recursive: true });
      copyFileSync(blobPath(ctx, getDataRow(ctx, o.id)!.storage_key), join(dir, o.filename));
    }
    const title = asReportText(titleOption?.trim() || `${scope.kind === 'project' ? 'Project' : 'Lane'} ${scope.name}`);
    const filename = `multiqc_${scope.kind}_${scope.id}.html`;
    const outDir = join(work, 'out');
    // --flat: images rather than CDN-drawn plots (executions/multiqc-report.ts says why).
    await runMultiqc([
      '--no-data-dir',
      '--force',
      '--flat',
      '--title',
      title,
      '--filename',
      filename,
      '--outdir',
      outDir,
      inDir,
    ]);
    const report = join(outDir, filename);
    if (!existsSync(report)) throw new ApiError('CONFLICT', 'MultiQC found nothing it reads in these outputs');
    scrubReport(report, [...names.values(), ...inputs.map((o) => o.filename), scope.name, titleOption]);
    makeReportOffline(report);
    const record = ctx.db.transaction(() => {
      const created = createDataRecord(ctx, {
        sourceFile: report,
        filename,
        dataType: 'multiqc',
        owner,
        source: 'report',
      });
      audit(
        ctx,
        user,
        'created',
        { kind: 'data', id: created.id, name: filename },
        { multiqc: { [scope.kind]: scope.id }, inputs: inputs.map((o) => o.id) },
      );
      return created;
    })();
    return {
      record,
      samples: [...new Set(inputs.map((o) => o.sample_id))].map((id) => ({ id, name: names.get(id)! })),
      executions: [...new Set(inputs.map((o) => o.execution_id))].sort((a, b) => a - b),
      inputs: inputs.length,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
