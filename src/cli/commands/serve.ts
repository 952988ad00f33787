/** `laneway serve`: the embedded service in the foreground (the remote service on a lab network). */
import type { Command } from './command';

export const serveCommand: Command = {
  help: [
    'Runs the service until SIGINT or SIGTERM. It binds 127.0.0.1 unless --host says otherwise;',
    'serve it to a lab network with --host 0.0.0.0 and connect desktop apps to its URL.',
    '',
    '  --port P         TCP port (0 picks a free one)            [LANEWAY_PORT]',
    '  --data DIR       data folder: database, secrets, files    [LANEWAY_DATA]',
    '  --host H         address to bind (default 127.0.0.1)      [LANEWAY_HOST]',
    '  --smtp URL       SMTP server for invitation e-mail        [LANEWAY_SMTP_URL]',
    '  --public-url U   public origin when behind TLS or a proxy [LANEWAY_PUBLIC_URL]',
    '  --json           print {"event":"listening","url":...} instead of a sentence',
  ].join('\n'),
  // The service is loaded when it runs, not for `laneway serve --help`.
  run: async (argv) => (await import('../../service/service-main')).serviceMain(argv),
};
