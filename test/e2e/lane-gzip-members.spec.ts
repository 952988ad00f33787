/**
 * The Lane screen's barcode check reads a gzip FASTQ of several members (lanes joined with
 * `cat`, bgzip's blocks) to its end: Chromium's DecompressionStream stopped after the first
 * member with "Junk found after end of compressed data", and the check failed with that message.
 * Real Chromium, a lane from the design generator gzipped as two members.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateDesignLane } from '../helpers/design-lane-generator';
import { expect, test } from './fixtures';
import { ensureFirstAccount, TECH } from './service-api';
import { signIn } from './ui-session';
import { newSheetWith } from './sheet-grid';

test('Lane screen: the barcode check reads every member of a gzip FASTQ', async ({ page, laneway }) => {
  await ensureFirstAccount(laneway.serviceUrl);
  const dir = mkdtempSync(join(tmpdir(), 'laneway-gz-members-'));
  const gen = generateDesignLane({ dir, kind: 'mixed5', reads: 3000, samples: 6, seed: 71, readLength: 80 });
  // Two members, split at a record boundary, as `cat L001.fastq.gz L002.fastq.gz` makes them.
  const lines = readFileSync(gen.read1, 'utf8').split('\n');
  const half = Math.floor(lines.length / 8) * 4;
  const joined = join(dir, 'joined_R1.fastq.gz');
  writeFileSync(
    joined,
    Buffer.concat([gzipSync(lines.slice(0, half).join('\n') + '\n'), gzipSync(lines.slice(half).join('\n'))]),
  );
  const tag = `G${Date.now() % 100000}`;
  await signIn(page, laneway, TECH);
  await newSheetWith(page, gen.samples.map((s) => `${tag}_${s.name}\t${s.cell}\tHomo sapiens\tGenomic DNA`).join('\n'));
  await page.getByTestId('open-fastq').setInputFiles(joined);
  const check = page.getByTestId('barcode-check');
  await check.getByRole('button', { name: /Check the first/ }).click();
  await expect(check.getByTestId('barcode-check-summary')).toContainText(/of 3,000 reads match a sample/);
});
