/**
 * `laneway upload FILE... [--sample NAME | --lane NAME --sheet SHEET]`: uploads files through the
 * durable queue with a progress bar. A lane goes through the service's lane checks (placement,
 * most reads undetermined, names already on the service) like every other lane path. Re-running the same command with the same --state resumes what a killed run
 * left (the files are matched to their jobs, nothing is sent twice, no sample is created twice).
 */
import { realpathSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { OverallProgress } from '../../shared/desktop-api/contract';
import { MAX_CHUNK_BYTES } from '../../shared/limits';
import { enqueueData, enqueueLane, enqueueSamples, type UploadQueue } from '../../main/core/headless';
import { UsageError, type Command } from './command';
import {
  CONNECTION_HELP,
  CONNECTION_OPTIONS,
  EXIT,
  ExitError,
  openCliQueue,
  parseMetadata,
  type CliQueue,
} from './service-login';

function human(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i ? 1 : 0)} ${units[i]}`;
}

function bar(o: OverallProgress): string {
  const share = o.bytes_total ? o.bytes_sent / o.bytes_total : 0;
  const width = 30;
  const filled = Math.round(share * width);
  const eta = o.eta_seconds === null ? '' : ` ETA ${Math.ceil(o.eta_seconds)}s`;
  const wait = o.waiting_reason ? ` (${o.waiting_reason})` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${human(o.bytes_sent)}/${human(o.bytes_total)} ${human(o.speed_bps)}/s${eta}${wait}`;
}

/** Job ids already queued for these exact sources (a re-run after a crash), else null. */
function existingJobs(queue: UploadQueue, paths: string[], groupName: string | null): number[] | null {
  // Looked up by their sources, not read whole: the state folder keeps every file it ever sent.
  const found = paths.map((p) =>
    queue.store
      .jobsWithSources(JSON.stringify([p]))
      .find(
        (j) =>
          j.state !== 'cancelled' &&
          (groupName === null ? j.group_id === null : queue.store.group(j.group_id ?? -1)?.name === groupName),
      ),
  );
  if (found.every((j) => j)) return found.map((j) => j!.id);
  return null;
}

export const uploadCommand: Command = {
  help: [
    'Uploads each FILE as a data record, or with --sample NAME the sample NAME from FILE (read 1)',
    'and an optional second FILE (read 2), created once both are uploaded. Files are sent in',
    'chunks with sha256 checksums; 409 DUPLICATE_FILE counts as done.',
    '',
    '  --sample NAME      create a sample from read 1 [and read 2]',
    '  --lane NAME        create the lane NAME from a multiplexed FILE [and its read 2] with --sheet;',
    '                     the service checks it as every lane (placement, undetermined reads, names',
    '                     already on the service) and refuses it naming the cause',
    '  --sheet SHEET      the lane annotation sheet (xlsx or csv) for --lane',
    '  --ignore-warnings  create the lane despite its warnings (a refused lane says why)',
    '  --metadata K=V     sample metadata (repeatable); the service requires organism and category,',
    '                     e.g. --metadata "organism=Homo sapiens" --metadata category=DNA',
    '  --concurrency N    files in flight at once (default 3)',
    '  --limit-mbps X     bandwidth limit in Mbit/s',
    '  --chunk-size B     chunk size in bytes for new jobs (default 8 MiB; at most 50 MB)',
    CONNECTION_HELP,
  ].join('\n'),
  async run(argv) {
    // undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it at once with its
    // baseline compiler, then again with its optimising one on a background thread, and Node
    // waits for that thread before the process may exit: 35 to 50 ms of a 250 ms upload of one
    // small file, which lab scripts run once per file (issue 21). Responses here are small JSON
    // bodies, so the baseline code is all this process needs. Set before undici's first
    // request compiles the parser; the long-running commands (serve, agent, start) keep both.
    setFlagsFromString('--liftoff-only');
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        sample: { type: 'string' },
        lane: { type: 'string' },
        sheet: { type: 'string' },
        'ignore-warnings': { type: 'boolean' },
        concurrency: { type: 'string' },
        'limit-mbps': { type: 'string' },
        'chunk-size': { type: 'string' },
        metadata: { type: 'string', multiple: true },
      },
    });
    if (!positionals.length) throw new UsageError('give at least one FILE');
    if (values.sample && positionals.length > 2)
      throw new UsageError('--sample takes one or two files (read 1, read 2)');
    if (values.lane && values.sample) throw new UsageError('--lane and --sample exclude each other');
    if (values.lane && positionals.length > 2)
      throw new UsageError('--lane takes one or two files (the multiplexed read 1, read 2)');
    if (!!values.lane !== !!values.sheet) throw new UsageError('--lane and --sheet go together');
    let sheet: string | undefined;
    if (values.sheet) {
      try {
        sheet = realpathSync(values.sheet);
      } catch {
        throw new UsageError(`no such sheet: ${values.sheet}`);
      }
    }
    const paths = positionals.map((p) => {
      try {
        return realpathSync(p);
      } catch {
        throw new UsageError(`no such file: ${p}`);
      }
    });
    const chunkSize = values['chunk-size'] ? Number(values['chunk-size']) : undefined;
    if (
      chunkSize !== undefined &&
      !(Number.isInteger(chunkSize) && chunkSize >= 1024 && chunkSize <= MAX_CHUNK_BYTES)
    ) {
      throw new UsageError(`--chunk-size takes 1024 to ${MAX_CHUNK_BYTES} bytes`);
    }
    const json = values.json ?? false;
    const tty = !json && process.stderr.isTTY;
    let last = '';
    // This run's files, once queued: the progress shown is theirs. The queue's own overall
    // counts every job in the state folder, which keeps every file it ever sent.
    let ids: number[] | null = null;
    let cli: CliQueue | undefined;
    try {
      cli = await openCliQueue(values, {
        chunkSize,
        emit: (event, payload) => {
          if (event === 'uploads:progress') {
            if (ids === null || !cli) return;
            const overall = cli.queue.overallOf(ids);
            if (tty) process.stderr.write(`\r${bar(overall)}`);
            else if (json) {
              const line = JSON.stringify({ event: 'progress', ...overall });
              if (line !== last) process.stdout.write(`${line}\n`);
              last = line;
            }
          } else if (json)
            process.stdout.write(
              `${JSON.stringify({ event: event.replace('uploads:', ''), ...(payload as object) })}\n`,
            );
        },
        log: (m) => process.stderr.write(`laneway upload: ${m}\n`),
      });
    } catch (err) {
      if (err instanceof ExitError) {
        process.stderr.write(`laneway upload: ${err.message}\n`);
        return err.exitCode;
      }
      throw err;
    }
    const { queue } = cli;
    const settings = queue.getSettings();
    const concurrency = values.concurrency ? Number(values.concurrency) : settings.concurrency;
    const limit = values['limit-mbps'] ? Number(values['limit-mbps']) : settings.limit_mbps;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)
      throw new UsageError('--concurrency takes 1 to 16');
    if (limit !== null && !(limit > 0)) throw new UsageError('--limit-mbps takes a positive number');
    queue.setSettings({ ...settings, concurrency, limit_mbps: limit });

    let found = existingJobs(queue, paths, values.sample ?? values.lane ?? null);
    // A lane or sample refused once all its files were in is asked for again (with
    // --ignore-warnings, a mended sheet, a read 2 that was a copy of read 1 put right): a new
    // group. Its files the service holds are not sent twice; a file whose bytes changed since
    // is sent. A group that failed with a file is taken up where it stopped (the retry below).
    if (
      found &&
      (values.lane || values.sample) &&
      found.every((id) => queue.store.job(id)!.state === 'completed') &&
      found.some((id) => queue.store.group(queue.store.job(id)!.group_id ?? -1)?.state === 'failed')
    )
      found = null;
    if (found) for (const id of found) if (queue.store.job(id)!.state === 'failed') queue.retry(id);
    ids = found;
    queue.start();
    if (!ids) {
      const result = values.lane
        ? await enqueueLane(queue, {
            name: values.lane,
            file: paths[0]!,
            read2: paths[1] ?? null,
            annotation: sheet!,
            ignore_warnings: values['ignore-warnings'] ?? false,
          })
        : values.sample
          ? await enqueueSamples(queue, [
              {
                name: values.sample,
                read1: paths[0]!,
                read2: paths[1] ?? null,
                metadata: parseMetadata(values.metadata),
              },
            ])
          : await enqueueData(queue, paths);
      ids = result.jobs.map((j) => j.id);
    }
    let interrupted = false;
    const onSignal = () => {
      interrupted = true;
      void cli.close().then(() => process.exit(EXIT.interrupted));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    await queue.waitForIdle();
    if (interrupted) return EXIT.interrupted;
    if (tty) process.stderr.write('\n');

    const jobs = (ids ?? []).map((id) => queue.job(id));
    const groupIds = [...new Set(jobs.map((j) => j.group_id).filter((g): g is number => g !== null))].sort(
      (a, b) => a - b,
    );
    const groups = groupIds.map((id) => queue.group(id)!);
    if (json) process.stdout.write(`${JSON.stringify({ event: 'done', jobs, groups })}\n`);
    else {
      for (const j of jobs)
        process.stdout.write(
          `${j.state === 'completed' ? 'uploaded' : j.state} ${j.filename}${j.data_id !== null ? ` data_id=${j.data_id}` : ''}${j.checksum ? ` sha256=${j.checksum}` : ''}${j.error && j.state !== 'completed' ? ` (${j.error})` : ''}\n`,
        );
      for (const g of groups)
        process.stdout.write(
          `${g.kind} ${g.name}: ${g.state}${g.created_id !== null ? ` id=${g.created_id}` : ''}${g.error ? ` (${g.error})` : ''}\n`,
        );
    }
    await cli.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    const ok = jobs.every((j) => j.state === 'completed') && groups.every((g) => g.state === 'created');
    return ok ? EXIT.ok : EXIT.failed;
  },
};
