/** The shape of one `laneway` subcommand. */
export interface Command {
  name: string;
  usage: string;
  summary: string;
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

/** Resolves when SIGINT or SIGTERM arrives. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}
