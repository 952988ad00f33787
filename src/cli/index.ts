/**
 * The `laneway` command line: a table of subcommands, each in its own module. Exit codes:
 * 0 success, 1 the work failed, 2 bad usage.
 */
import { COMMANDS, findCommand } from './commands/index';
import { runCommand, USAGE_EXIT } from './run-command';

export { USAGE_EXIT };

function help(): string {
  const lines = ['Usage: laneway <command> [options]', '', 'Commands:'];
  for (const c of COMMANDS) lines.push(`  laneway ${c.usage}`, `      ${c.summary}`);
  lines.push('', 'Run `laneway <command> --help` for the options of one command.');
  lines.push(
    'Environment: LANEWAY_URL, LANEWAY_USERNAME, LANEWAY_PASSWORD, LANEWAY_TOKEN (an API key), LANEWAY_DATA, LANEWAY_SMTP_URL.',
  );
  return lines.join('\n');
}

/** Runs one command; resolves with the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return name ? 0 : USAGE_EXIT;
  }
  if (name === '--version') {
    const { APP_VERSION } = await import('../shared/version');
    process.stdout.write(`${APP_VERSION}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    process.stderr.write(`laneway: unknown command "${name}"\n\n${help()}\n`);
    return USAGE_EXIT;
  }
  return runCommand(name, entry.usage, await entry.load(), rest);
}
