// The renderer's bundle budget (README): the JavaScript a window loads, gzipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const dir = 'out/renderer/assets';
let total = 0;
for (const f of readdirSync(dir)) {
  if (f.endsWith('.js') || f.endsWith('.css')) total += gzipSync(readFileSync(join(dir, f))).length;
}
const kb = total / 1024;
console.log(`renderer bundle: ${kb.toFixed(1)} KiB gzipped (budget ${BUDGET_KB} KiB)`);
if (kb > BUDGET_KB) {
  console.error('renderer bundle is over budget');
  process.exit(1);
}
