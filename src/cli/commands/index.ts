/** Every `laneway` subcommand, in the order `laneway --help` lists them. */
import type { Command } from './command';
import { serveCommand } from './serve';
import { startCommand } from './start';

export const commands: readonly Command[] = [startCommand, serveCommand];
