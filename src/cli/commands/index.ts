/**
 * The `laneway` command table, in the order `laneway --help` lists it: each command's usage and
 * summary, and how to load it. `laneway --help` and `--version` read this table and load nothing
 * else; a command's module (and the service, the desktop core or an engine behind it) is
 * imported only when that command runs or its own `--help` is asked for.
 */
import type { Command } from './command';
import { DEMUX_USAGE, QC_USAGE } from './one-shot-usage';

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'start',
    usage: 'start [--browser] [--no-open] [--port P] [--home DIR] [--data DIR]',
    summary: 'start Laneway (Electron, or browser mode where Electron cannot run)',
    load: async () => (await import('./start')).startCommand,
  },
  {
    name: 'serve',
    usage: 'serve --port P --data DIR [--host H] [--smtp URL]',
    summary: 'run the Bioinformatics Analysis Service in the foreground',
    load: async () => (await import('./serve')).serveCommand,
  },
  {
    name: 'users',
    usage: 'users add --username U --email E [--name N] [--admin] [--can-run-pipelines] | users list',
    summary: "manage the service's accounts in its data folder",
    load: async () => (await import('./users')).usersCommand,
  },
  {
    name: 'qc',
    usage: QC_USAGE,
    summary: 'quality control of a FASTQ or FASTQ.gz file, without the service',
    load: async () => (await import('./qc')).qcCommand,
  },
  {
    name: 'demux',
    usage: DEMUX_USAGE,
    summary: 'demultiplex a lane by its annotation sheet, without the service',
    load: async () => (await import('./demux')).demuxCommand,
  },
  {
    name: 'upload',
    usage: 'upload FILE... [--sample NAME] [--url URL] [--state DIR]',
    summary: 'upload FASTQ files (or one sample) through the resumable queue',
    load: async () => (await import('./upload')).uploadCommand,
  },
  {
    name: 'agent',
    usage: 'agent [--watch DIR --kind K]... [--url URL] [--state DIR]',
    summary: 'watch instrument folders and upload finished runs, headless',
    load: async () => (await import('./agent')).agentCommand,
  },
  {
    name: 'backup',
    usage: 'backup --to FILE [--data DIR] [--home DIR | --no-home]',
    summary: "copy the service's data (and the app's upload queue and profiles) to one file, while it runs",
    load: async () => (await import('./backup')).backupCommand,
  },
  {
    name: 'restore',
    usage: 'restore --from FILE --data DIR [--home DIR] [--force]',
    summary: 'put a backup back as a data folder (stop the service first)',
    load: async () => (await import('./backup')).restoreCommand,
  },
];

/** The entry named `name`, or undefined. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
