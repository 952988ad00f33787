/** The HTML report is one self-contained, well-formed document. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderQcHtml } from '../../../src/service/tools/qc/qc-html';
import { runQc } from '../../../src/service/tools/qc/qc-run';
import { fastqText } from '../../helpers/qc-fastq';
import { tempDir } from '../../helpers/temp';

const dir = tempDir('laneway-qc-html-');
afterAll(() => dir.remove());

const VOID = new Set(['meta', 'br', 'img', 'input', 'link', 'hr']);

/** Checks that every element is closed in order; returns the problems found. */
function tagProblems(html: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const body = html.replace(/^<!doctype html>/i, '').replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*?)(\/?)>/g)) {
    const [, closing, name, , selfClosing] = m;
    const tag = name!.toLowerCase();
    if (selfClosing || VOID.has(tag)) continue;
    if (!closing) stack.push(tag);
    else if (stack.pop() !== tag) problems.push(`unexpected </${tag}>`);
  }
  if (stack.length) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}

describe('quality-control HTML report', () => {
  it('is self-contained, well formed and escapes what it prints', async () => {
    const path = join(dir.path, '<b>&sample.fq');
    const adapter = 'AGATCGGAAGAGCACACGTCTGAACTCCAGTCA';
    writeFileSync(
      path,
      fastqText({
        reads: 400,
        length: [40, 90],
        nRate: 0.01,
        seed: 8,
        adapter: { sequence: adapter, rate: 0.3 },
        duplicateRate: 0.3,
      }),
    );
    const result = await runQc(path);
    const html = renderQcHtml(result);
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    expect(html).toContain('&#60;b&#62;&#38;sample.fq');
    expect(html).not.toContain('<b>&sample');
    expect(tagProblems(html)).toEqual([]);
    for (const title of [
      'Per-position quality',
      'Per-position base content',
      'GC content per read',
      'Adapter content',
      'Sequence duplication',
      'Overrepresented sequences',
    ]) {
      // A section's heading carries its FastQC-limit verdict where the module has one.
      expect(html).toMatch(
        new RegExp(`<h2>${title}(<span class="flag flag-(pass|warn|fail)"[^>]*>(PASS|WARN|FAIL)</span>)?</h2>`),
      );
    }
    expect(html).toContain('<h2>Flags</h2>');
    expect((html.match(/<svg /g) ?? []).length).toBe(7);
    expect(html).toContain('Illumina Universal Adapter');
  });
});
