/** Every `laneway` subcommand, in the order `laneway --help` lists them. */
import { agentCommand } from './agent';
import type { Command } from './command';
import { demuxCommand } from './demux';
import { qcCommand } from './qc';
import { serveCommand } from './serve';
import { uploadCommand } from './upload';
import { startCommand } from './start';
import { usersCommand } from './users';

export const commands: readonly Command[] = [
  startCommand,
  serveCommand,
  usersCommand,
  qcCommand,
  demuxCommand,
  uploadCommand,
  agentCommand,
];
