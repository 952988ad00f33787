#!/usr/bin/env node
// The `laneway` command. It runs the TypeScript sources through tsx's loader so that the CLI,
// the service and the desktop core need no separate build step (see README, decisions).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./index.ts');
process.exitCode = await main(process.argv.slice(2));
