/** Process entry of the service (spawned by the desktop core). */
import { serviceMain } from './service-main';

serviceMain(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`laneway serve: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
