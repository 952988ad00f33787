/** The module of one `laneway` subcommand (its name, usage and summary are in the table, index.ts). */
export interface Command {
  help: string;
  /** Runs the command; resolves with the exit code (long-running commands resolve when they stop). */
  run(argv: string[]): Promise<number>;
}

/** Bad usage: the CLI answers exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Resolves when SIGINT or SIGTERM arrives. The listeners stay for the life of the process, so
 * a second signal during shutdown never falls through to the default action (kill).
 */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.on('SIGINT', () => resolve('SIGINT'));
    process.on('SIGTERM', () => resolve('SIGTERM'));
  });
}
