/**
 * Drop ingest: dropped files and folders become a proposal the user edits. Samples with
 * read 1 and read 2 paired by name (one sample across lanes, its lane files joined in lane
 * order; names and projects from an Illumina sample sheet or Element's RunManifest), one
 * sample per Nanopore run or barcode (its batches joined in batch order, never paired; see
 * instruments/nanopore-samples.ts), or a lane when an annotation sheet comes with one
 * multiplexed FASTQ. Undetermined reads stay with the run (its report shows their share);
 * `unclassified` and `fastq_fail` are left out; the instrument's own files are left out
 * quietly. Warnings for what the service will refuse. Nothing is uploaded here.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IngestWarning, Proposal, ProposedSample } from '../../../shared/desktop-api/contract';
import { missingMetadataMessage } from '../../../shared/desktop-api/sample-metadata';
import { classifyFile, compareBatches, isFastqName, pairFastqs } from '../../../shared/fastq-naming';
import { MAX_FILE_BYTES } from '../../../shared/limits';
import { isInstrumentFile } from '../instruments/instrument-files';
import { newestAnalysis, readIlluminaRunInfo } from '../instruments/illumina-run';
import { readBarcodeAliases } from '../instruments/nanopore-run';
import { runProvenance, sampleProvenance } from '../instruments/run-provenance';
import { nanoporeSamples } from '../instruments/nanopore-samples';
import { mgiProvenance } from '../instruments/mgi-run';
import { elementProvenance } from '../instruments/element-run-parameters';
import { isSpikeInControlRead, isUndeterminedRead, readRunReport } from '../instruments/run-report';
import { detectRunKind } from '../runs/run-kind';
import { parseSampleSheet, sheetEntryFor, type SampleSheet } from '../runs/sample-sheet';
import { joinLanes } from './join-lanes';
import { looksCopied } from './copied-mate';
import { checkedPath, isDirectory, scanPaths, type ScannedFile } from '../files/scan-paths';

const GB = 1000 ** 3;

function fastqStem(name: string): string {
  return name.replace(/\.(fastq|fq)(\.gz)?$/i, '');
}

export interface ProposeOptions {
  /** Join MinKNOW's fastq_fail batches after the pass batches (left out by default). */
  includeFailed?: boolean;
}

/** Builds the proposal for dropped paths. */
export async function propose(paths: readonly string[], options: ProposeOptions = {}): Promise<Proposal> {
  const roots = await Promise.all(paths.map(checkedPath));
  let run: Proposal['run'] = null;
  if (roots.length === 1 && (await isDirectory(roots[0]!))) {
    const kind = await detectRunKind(roots[0]!);
    if (kind) run = { kind, path: roots[0]!, name: basename(roots[0]!) };
  }
  const files = await scanPaths(roots);
  const warnings: IngestWarning[] = [];
  const ignored: string[] = [];
  const fastqs: ScannedFile[] = [];
  const sheets: ScannedFile[] = [];
  const runBams: ScannedFile[] = [];
  const references: ScannedFile[] = [];
  let sampleSheet: SampleSheet | null = null;

  let aliases = new Map<string, string>();
  const undetermined: ScannedFile[] = [];
  const controls: ScannedFile[] = [];
  for (const f of files) {
    const cls = classifyFile(f.name);
    if (cls === 'fastq' && isSpikeInControlRead(f.path, f.name)) {
      // Element's PhiX spike-in written as its own sample folder: a control, kept with the run.
      controls.push(f);
      ignored.push(f.path);
    } else if (cls === 'fastq' && isUndeterminedRead(f.name)) {
      // Reads no index matched: kept with the run, never a sample (the service reserves the name).
      undetermined.push(f);
      ignored.push(f.path);
    } else if (cls === 'fastq') {
      if (f.size > MAX_FILE_BYTES) {
        warnings.push({
          code: 'too-large',
          path: f.path,
          message: `${f.name} is ${(f.size / GB).toFixed(1)} GB; the service takes at most 50 GB per file`,
        });
        ignored.push(f.path);
      } else if (f.size === 0) {
        warnings.push({ code: 'empty', path: f.path, message: `${f.name} is empty` });
        ignored.push(f.path);
      } else fastqs.push(f);
    } else if (cls === 'fastq-ora') {
      warnings.push({
        code: 'fastq-ora',
        path: f.path,
        message: `${f.name} is ORA-compressed; decompress it to .fastq.gz first (the service accepts fastq and fastq.gz)`,
      });
      ignored.push(f.path);
    } else if (cls === 'bam') {
      // MinKNOW's bam_pass/bam_fail (and an aligner's output in a run) are one line, not one per batch.
      if (run || /(^|[\\/])bam_(pass|fail)([\\/]|$)/.test(f.dir)) runBams.push(f);
      else
        warnings.push({
          code: 'bam',
          path: f.path,
          message: `${f.name} is an alignment file; the service accepts only fastq and fastq.gz`,
        });
      ignored.push(f.path);
    } else if (cls === 'sheet' && /^samplesheet.*\.csv$/i.test(f.name)) {
      sampleSheet ??= parseSampleSheet(await readFile(f.path, 'utf8').catch(() => ''));
      if (!sampleSheet)
        warnings.push({
          code: 'sample-sheet',
          path: f.path,
          message: `${f.name} is not a sample sheet this app can read`,
        });
    } else if (cls === 'sheet' && /^sample_sheet_.*\.csv$/i.test(f.name)) {
      // MinKNOW's sample sheet: barcode -> the alias the technician typed.
      try {
        const found = readBarcodeAliases(await readFile(f.path, 'utf8').catch(() => ''));
        if (found.size) aliases = found;
      } catch (err) {
        warnings.push({
          code: 'sample-sheet',
          path: f.path,
          message: `${f.name} cannot be read: ${(err as Error).message}`,
        });
      }
    } else if (
      /^(Demultiplex_Stats|Top_Unknown_Barcodes|Adapter_Metrics|Index_Hopping_Counts|fastq_list|RunManifest|output_hash_.*)\.(csv|json)$/i.test(
        f.name,
      )
    ) {
      // Instrument reports: read into the run's report below, never uploaded.
    } else if (cls === 'sheet' && f.name.toLowerCase().endsWith('.xlsx')) {
      sheets.push(f);
    } else if (cls === 'reference' && !run) {
      // A reference dropped with reads (or alone) goes through the queue as a data record: a
      // genome of gigabytes then resumes after a lost connection, as the launch form's upload does not.
      references.push(f);
    } else if (isInstrumentFile(f.path, f.name)) {
      // Logs, InterOp, reports, raw signal: the instrument's own files, left out quietly.
      ignored.push(f.path);
    } else if (!run) {
      // Inside a run folder the instrument's own files are expected; only loose drops warn.
      warnings.push({
        code: 'not-fastq',
        path: f.path,
        message: `${f.name} is not a FASTQ file and will not be uploaded`,
      });
      ignored.push(f.path);
    }
  }

  if (runBams.length)
    warnings.push({
      code: 'bam',
      path: null,
      message: `${runBams.length} BAM file${runBams.length === 1 ? '' : 's'} (alignments or MinKNOW's bam_pass) are not uploaded: the service accepts only fastq and fastq.gz${fastqs.length ? '' : '; turn on FASTQ output in MinKNOW, or convert with samtools fastq'}`,
    });

  // Nanopore: one sample per run (no barcodes) or per barcode, batches joined in batch order.
  const nanopore = await nanoporeSamples(fastqs, aliases, options.includeFailed ?? false);
  ignored.push(...nanopore.ignored);
  // A requeued on-instrument analysis (Analysis/2, Alignment_2) supersedes the earlier one.
  const { kept: plain, superseded } = newestAnalysis(nanopore.rest);
  ignored.push(...superseded.map((f) => f.path));
  if (superseded.length)
    warnings.push({
      code: 'superseded-analysis',
      path: null,
      message: `${superseded.length} FASTQ file${superseded.length === 1 ? '' : 's'} of an earlier analysis of this run are left out; the newest analysis's are proposed`,
    });
  const samples: ProposedSample[] = [...nanopore.samples];

  const pairing = pairFastqs(plain, (f) => f.name);
  const loose: string[] = references.map((f) => f.path);
  for (const u of pairing.unpaired) {
    warnings.push({
      code: 'unpaired-read',
      path: u.path,
      message: `${u.name} has no matching read 1; it can be uploaded as plain data`,
    });
    loose.push(u.path);
  }
  for (const i of pairing.indexReads) ignored.push(i.path);

  // An annotation sheet with one multiplexed FASTQ (or one R1/R2 pair) is a lane.
  if (sheets.length === 1 && pairing.samples.length === 1 && nanopore.samples.length === 0) {
    const only = pairing.samples[0]!;
    return {
      kind: 'lane',
      samples: [],
      lane: {
        name: fastqStem(only.read1.name).replace(/_R?1(_001)?$/i, ''),
        file: only.read1.path,
        read2: only.read2?.path ?? null,
        annotation: sheets[0]!.path,
      },
      loose,
      ignored,
      warnings,
      total_bytes: only.read1.size + (only.read2?.size ?? 0),
      run,
    };
  }
  if (sheets.length)
    for (const s of sheets)
      warnings.push({
        code: 'not-fastq',
        path: s.path,
        message: `${s.name} is a lane annotation sheet, but the drop is not one multiplexed FASTQ; it is ignored`,
      });

  const { joined, mixed } = joinLanes(pairing.samples);
  for (const name of mixed)
    warnings.push({
      code: 'unpaired-read',
      path: null,
      message: `${name} has read 2 on some lanes only; its lanes are proposed as separate samples`,
    });
  const report = await readRunReport(run?.path ?? null, files, sampleSheet, warnings);
  const runInfo = run?.kind === 'illumina' ? await readIlluminaRunInfo(run.path) : null;
  // MGI writes no run folder Laneway detects, but each lane's BioInfo.csv names the run.
  const provenance = {
    ...(run ? runProvenance(runInfo, run.name) : {}),
    ...(run?.kind === 'element' ? await elementProvenance(run.path) : {}),
    ...(await mgiProvenance(files)),
  };
  // The joined pairs' samples follow the Nanopore ones, one per pair and in the same order.
  const firstJoined = samples.length;
  for (const p of joined) {
    const entry = sheetEntryFor(sampleSheet, p.name);
    const fromManifest = report?.manifest?.find((m) => m.name === p.name) ?? null;
    const metadata: Record<string, unknown> = {};
    // The sample sheet's adapters go to Adapter Trimming through the sample's metadata.
    if (report?.adapters?.read1) metadata.adapter_read1 = report.adapters.read1;
    if (report?.adapters?.read2) metadata.adapter_read2 = report.adapters.read2;
    Object.assign(metadata, provenance, sampleProvenance(entry, fromManifest, p.lanes));
    // An MGI sample is named <FLOWCELL>_<barcode>: the barcode's name (MGI's number) goes with it.
    const mgiBarcode =
      provenance.flowcell && p.name.startsWith(`${provenance.flowcell}_`)
        ? p.name.slice(provenance.flowcell.length + 1)
        : null;
    if (mgiBarcode && !/^L0\d$/.test(mgiBarcode) && !metadata.index) metadata.barcode = mgiBarcode;
    const all = [...p.read1, ...(p.read2 ?? [])];
    samples.push({
      name: entry && entry.name !== p.name ? entry.name : p.name,
      read1: p.read1[0]!.path,
      read2: p.read2?.[0]?.path ?? null,
      lane: p.lanes.length === 1 ? p.lanes[0]! : null,
      project: entry?.project ?? fromManifest?.project ?? null,
      bytes: all.reduce((s, f) => s + f.size, 0),
      ...(p.read1.length > 1 ? { read1_parts: p.read1.map((f) => f.path) } : {}),
      ...(p.read2 && p.read2.length > 1 ? { read2_parts: p.read2.map((f) => f.path) } : {}),
      ...(Object.keys(metadata).length ? { metadata } : {}),
    });
  }
  const copies = joined.map((p, at) => {
    const [r1, r2] = [p.read1, p.read2 ?? []];
    // Lanes joined into one read are compared lane by lane.
    if (r1.length !== r2.length) return null;
    for (let i = 0; i < r1.length; i++)
      if (looksCopied(r1[i]!, r2[i]!)) return { name: samples[firstJoined + at]!.name, r1: r1[i]!, r2: r2[i]! };
    return null;
  });
  for (const c of copies)
    if (c)
      warnings.push({
        code: 'read2-copy',
        path: c.r2.path,
        message: `${c.r2.name} starts with the same bytes as ${c.r1.name} and is as large: read 2 of ${c.name} looks like a copy of read 1. The service refuses such a sample; put the right file in place, or untick it`,
      });
  if (undetermined.length) {
    const share = report?.undetermined?.fraction;
    warnings.push({
      code: 'undetermined',
      path: null,
      // Named as the instrument names them: Element's Bases2Fastq says Unassigned.
      message: `${undetermined.length} ${undetermined.every((f) => /^Unassigned/i.test(f.name)) ? 'Unassigned' : 'Undetermined'} file${undetermined.length === 1 ? '' : 's'}${share !== null && share !== undefined ? ` (${(share * 100).toFixed(1)}% of the run's reads)` : ''} stay with the run and are not proposed as a sample`,
    });
  }
  if (controls.length)
    warnings.push({
      code: 'undetermined',
      path: null,
      message: `${controls.length} PhiX control file${controls.length === 1 ? '' : 's'} (the spike-in Bases2Fastq wrote as its own sample) stay with the run and are not proposed as a sample`,
    });
  const names = new Map<string, number>();
  for (const s of samples) names.set(s.name, (names.get(s.name) ?? 0) + 1);
  for (const [name, n] of names)
    if (n > 1)
      warnings.push({
        code: 'duplicate-name',
        path: null,
        message: `${n} samples are named ${name}; rename them before uploading`,
      });

  // Organism and Category come from the sheet's own columns or are chosen; Confirm stays
  // blocked until every sample has both.
  const missing = missingMetadataMessage(samples);
  if (missing) warnings.push({ code: 'missing-metadata', path: null, message: missing });

  const total =
    samples.reduce((s, x) => s + x.bytes, 0) +
    [...plain, ...references].filter((f) => loose.includes(f.path)).reduce((s, f) => s + f.size, 0);
  const kind = samples.length ? 'samples' : loose.length ? 'data' : 'empty';
  return { kind, samples, lane: null, loose, ignored, warnings, total_bytes: total, run, report };
}

/** The FASTQ batches of a Nanopore barcode folder, in batch order (the order they are joined). */
export async function barcodeBatches(dir: string): Promise<string[]> {
  const files = await scanPaths([dir]);
  return files
    .filter((f) => f.dir === dir && isFastqName(f.name))
    .map((f) => f.path)
    .sort(compareBatches);
}
