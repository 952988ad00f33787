// `node --import <this file> ...`: every module the process resolves is appended, one URL a line,
// to the file named by LANEWAY_IMPORT_LOG (for tests of what a command loads).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
