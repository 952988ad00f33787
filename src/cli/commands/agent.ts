/**
 * `laneway agent`: the watchers and the upload queue without a window, for instrument PCs.
 * Watched folders live in the state folder (added with --watch once, kept afterwards); runs
 * that complete are uploaded and their samples created; it runs until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { InstrumentKind } from '../../shared/desktop-api/contract';
import { checkedPath, RunStore, WatcherService } from '../../main/core/index';
import { UsageError, untilSignal, type Command } from './command';
import { CONNECTION_HELP, CONNECTION_OPTIONS, EXIT, ExitError, openCliQueue, parseMetadata } from './service-login';

const KINDS: readonly InstrumentKind[] = ['illumina', 'nanopore', 'element', 'generic'];

/** --param values as the pipeline's typed parameters: numbers and booleans are not strings. */
function typedParams(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const text = String(v);
    out[k] = text === 'true' ? true : text === 'false' ? false : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  return out;
}

export const agentCommand: Command = {
  help: [
    'Watches instrument output folders and uploads each run once its instrument marks it',
    'complete (Illumina, Oxford Nanopore, Element; generic folders once files settle). Folders',
    'are only read, never written. Runs until SIGINT or SIGTERM; a restart resumes uploads.',
    '',
    '  --watch DIR           add a watched folder (repeatable; kept in the state folder)',
    '  --kind K              instrument kind of the --watch folders: illumina, nanopore, element, generic',
    '  --polling             poll the --watch folders (network shares: SMB, NFS)',
    '  --no-auto-upload      detect runs but do not upload them',
    '  --metadata K=V        metadata of samples created from the --watch folders (organism, category ...)',
    '  --launch PIPELINE     run this pipeline (name: its latest version; or a version id) on each',
    '                        registered run of the --watch folders',
    '  --param K=V           a parameter of the --launch pipeline (repeatable; numbers and true/false typed)',
    '  --settle-seconds N    generic folders: ready after N seconds without changes (default 300)',
    '  --reconcile-seconds N full rescan interval (default 60)',
    CONNECTION_HELP.replace('0 everything uploaded (and samples or lanes created)', '0 stopped by a signal').replace(
      '; 130 interrupted',
      '',
    ),
  ].join('\n'),
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: {
        ...CONNECTION_OPTIONS,
        watch: { type: 'string', multiple: true },
        kind: { type: 'string' },
        polling: { type: 'boolean' },
        'no-auto-upload': { type: 'boolean' },
        'settle-seconds': { type: 'string' },
        'reconcile-seconds': { type: 'string' },
        metadata: { type: 'string', multiple: true },
        launch: { type: 'string' },
        param: { type: 'string', multiple: true },
      },
    });
    if (values.param?.length && !values.launch) throw new UsageError('--param needs --launch PIPELINE');
    const launch = values.launch
      ? { pipeline: values.launch, parameters: typedParams(parseMetadata(values.param)) }
      : null;
    const kind = (values.kind ?? 'generic') as InstrumentKind;
    if (!KINDS.includes(kind)) throw new UsageError(`--kind takes ${KINDS.join(', ')}`);
    const settle = Number(values['settle-seconds'] ?? 300);
    const reconcile = Number(values['reconcile-seconds'] ?? 60);
    if (!(settle >= 0) || !(reconcile > 0))
      throw new UsageError('--settle-seconds and --reconcile-seconds take positive numbers');
    const json = values.json ?? false;
    const say = (event: string, payload: object, text: string) =>
      process.stdout.write(json ? `${JSON.stringify({ event, ...payload })}\n` : `${text}\n`);

    const stop = untilSignal();
    let watchers: WatcherService | null = null;
    let cli;
    try {
      cli = await openCliQueue(values, {
        emit: (event, payload) => {
          if (event === 'uploads:progress') return;
          const p = payload as { filename?: string; name?: string; state?: string };
          say(event, payload as object, `${event} ${p.filename ?? p.name ?? ''} ${p.state ?? ''}`);
          watchers?.followUploads();
        },
        log: (m) => process.stderr.write(`laneway agent: ${m}\n`),
      });
    } catch (err) {
      if (err instanceof ExitError) {
        process.stderr.write(`laneway agent: ${err.message}\n`);
        return err.exitCode;
      }
      throw err;
    }
    const runs = new RunStore(cli.queue.store.db);
    for (const dir of values.watch ?? []) {
      const path = await checkedPath(dir).catch(() => {
        throw new UsageError(`no such folder: ${dir}`);
      });
      if (!runs.watchers().some((w) => w.path === path))
        runs.addWatcher({
          path,
          kind,
          auto_upload: !values['no-auto-upload'],
          polling: values.polling ?? false,
          settle_seconds: settle,
          sample_metadata: parseMetadata(values.metadata),
          launch,
        });
    }
    if (!runs.watchers().length) throw new UsageError('no watched folders: add one with --watch DIR');
    const client = cli.client;
    watchers = new WatcherService({
      runs,
      queue: cli.queue,
      client: () => client,
      reconcileMs: reconcile * 1000,
      emit: (event, payload) => {
        const p = payload as { name?: string; state?: string; message?: string };
        say(event, payload as object, `${event} ${p.name ?? ''} ${p.state ?? p.message ?? ''}`);
      },
      log: (m) => process.stderr.write(`laneway agent: ${m}\n`),
    });
    cli.queue.start();
    await watchers.start();
    say(
      'started',
      { watchers: watchers.list() },
      `watching ${watchers
        .list()
        .map((w) => `${w.path} (${w.kind})`)
        .join(', ')}`,
    );
    await stop;
    await watchers.stop();
    await cli.close();
    return EXIT.ok;
  },
};
