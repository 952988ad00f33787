/**
 * `npm run bench [-- --quick] [-- name...]`: runs every benchmark (or those named) and prints,
 * for each figure, the reference tool's value, ours, and the ratio; each benchmark's start (UTC)
 * and the load average then, since a figure means little without the load it was taken under,
 * and a table of every figure with both at the end. Before each benchmark it waits (up to three
 * minutes; `--no-settle` skips this) for the one-minute load average to fall under 1: the one
 * before it leaves its own load behind, and a ratio taken under load flatters whichever tool
 * suffers more from it.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ratio, type BenchFigure, type Benchmark } from './harness';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const settle = !args.includes('--no-settle');
const only = args.filter((a) => !a.startsWith('--'));
const workDir = join(here, '..', '..', '.bench');
mkdirSync(workDir, { recursive: true });

const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const all: Array<BenchFigure & { benchmark: string; ratio: number; at: string; load: number }> = [];
/** Waits until the one-minute load average is under 1, or three minutes have passed. */
async function settled(name: string): Promise<void> {
  const until = Date.now() + 180_000;
  if (loadavg()[0]! < 1) return;
  process.stdout.write(`\n(waiting for the load average, ${loadavg()[0]!.toFixed(2)}, to fall under 1 before ${name})`);
  while (loadavg()[0]! >= 1 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5_000));
}
/** Hours and minutes, UTC. */
const clock = (iso: string) => iso.slice(11, 16);
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { benchmark: Benchmark };
  const b = mod.benchmark;
  if (only.length && !only.some((o) => b.name.includes(o) || file.includes(o))) continue;
  if (settle) await settled(b.name);
  const at = new Date().toISOString();
  const load = Number(loadavg()[0]!.toFixed(2));
  console.log(`\n## ${b.name} (${clock(at)} UTC, load ${load})`);
  const figures = await b.run({ workDir, quick, log: (m) => console.log(`   ${m}`) });
  for (const f of figures) {
    const r = ratio(f);
    all.push({ ...f, benchmark: b.name, ratio: r, at, load });
    const goal = f.goal === undefined ? '' : r >= f.goal ? `  goal ${f.goal}x: met` : `  goal ${f.goal}x: NOT met`;
    console.log(
      `   ${f.name}: ${f.reference.tool} ${f.reference.value.toFixed(1)} ${f.unit}, laneway ${f.ours.toFixed(1)} ${f.unit}, ratio ${r.toFixed(2)}${goal}`,
    );
    if (f.notes) console.log(`     ${f.notes}`);
  }
}
writeFileSync(
  join(workDir, 'results.json'),
  JSON.stringify({ at: new Date().toISOString(), quick, figures: all }, null, 2),
);
console.log("\n## every figure: its benchmark's start (UTC), the load then, the ratio and its goal");
for (const f of all)
  console.log(
    `   ${clock(f.at)}  load ${f.load.toFixed(2)}  ${f.ratio.toFixed(2)}${f.goal === undefined ? '' : ` (goal ${f.goal})`}  ${f.name}`,
  );
console.log(`\n${all.length} figures written to .bench/results.json`);
