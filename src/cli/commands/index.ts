/**
 * Every `laneway` subcommand, in the order `laneway --help` lists them. Each is loaded only when
 * it runs: the service, the desktop core and the engines are heavy, and `laneway demux` should
 * not pay for fastify or the keychain at start-up.
 */
import type { Command } from './command';

export const commandLoaders: Readonly<Record<string, () => Promise<Command>>> = {
  start: async () => (await import('./start')).startCommand,
  serve: async () => (await import('./serve')).serveCommand,
  users: async () => (await import('./users')).usersCommand,
  qc: async () => (await import('./qc')).qcCommand,
  demux: async () => (await import('./demux')).demuxCommand,
  upload: async () => (await import('./upload')).uploadCommand,
  agent: async () => (await import('./agent')).agentCommand,
  backup: async () => (await import('./backup')).backupCommand,
  restore: async () => (await import('./backup')).restoreCommand,
};

/** Loads every command (for the help listing). */
export async function loadAllCommands(): Promise<Command[]> {
  return Promise.all(Object.values(commandLoaders).map((load) => load()));
}
