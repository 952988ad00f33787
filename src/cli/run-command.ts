/**
 * Running one loaded `laneway` subcommand: its `--help`, its exit code, and the exit code of a
 * failure (2 for bad usage, else 1). Shared by the command table's main (index.ts) and the
 * one-shot bundles that run a single command without the table (one-shot.ts).
 */
import type { Command } from './commands/command';

export const USAGE_EXIT = 2;

/** Runs `command` (named `name`, with its usage line) on the arguments after its name. */
export async function runCommand(name: string, usage: string, command: Command, rest: string[]): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`Usage: laneway ${usage}\n\n${command.help}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    const e = err as Error & { code?: string };
    process.stderr.write(`laneway ${name}: ${e.message}\n`);
    return e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
      e.name === 'UsageError'
      ? USAGE_EXIT
      : 1;
  }
}
