/**
 * Issue 20 item 8: the catalogue speaks to technicians. No "data records" (the API's word), no
 * "Counts match fastp's" (a test's claim, not a description), no pointer to a README section
 * that no longer exists; Demultiplexing is not filed under "DNA Analysis".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(__dirname, '../../../resources/pipelines');
const manifests = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));

describe('the pipeline catalogue', () => {
  it.each(manifests)('$file has no jargon', ({ text }) => {
    expect(text).not.toMatch(/data records?\b/i);
    expect(text).not.toMatch(/Counts match fastp/);
    expect(text).not.toMatch(/README's cluster section/);
  });
  it('points at docs that exist', () => {
    for (const { text } of manifests) {
      for (const doc of text.match(/docs\/[\w/.-]+\.md/g) ?? [])
        expect(existsSync(join(dir, '../..', doc)), doc).toBe(true);
    }
    expect(manifests.find((m) => m.file === 'read-alignment.json')!.text).toContain(
      'docs/service/pipelines-and-executions.md',
    );
  });
  it('files Demultiplexing under Sequencing, not DNA Analysis', () => {
    const demux = JSON.parse(manifests.find((m) => m.file === 'demultiplexing.json')!.text) as { category: string };
    expect(demux.category).toBe('Sequencing');
  });
});
