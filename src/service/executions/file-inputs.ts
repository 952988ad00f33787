/**
 * The files a run's `file` parameters name, made ready for its engine: a FASTA reference is
 * the indexed copy shared by every run of that reference (built once), other records (GTF,
 * GFF3, BED...) are linked into the work folder under their own extension, since tools such
 * as bcftools read a file's coordinates (0- or 1-based) from its name.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../context';
import { dataFilePath } from '../data/data.commands';
import { getDataRow } from '../data/data.store';
import { referenceIndex, type BuildHooks, type IndexKind } from '../references/reference-index';

function extensionOf(filename: string): string {
  return /(\.[A-Za-z0-9]{1,8})?(\.(gz|bgz))?$/.exec(filename)?.[0].toLowerCase() ?? '';
}

/** Absolute paths by parameter name; `log` tells the run's log what happened to references. */
export async function prepareFileInputs(
  ctx: ServiceContext,
  params: Record<string, unknown>,
  version: { parameters: Array<{ name: string; type: string }>; tools: string[] },
  workDir: string,
  log: (message: string) => void,
  hooks: BuildHooks = {},
): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const kinds: IndexKind[] = ['faidx', 'minimap2', ...(version.tools.includes('bwa') ? ['bwa' as const] : [])];
  for (const p of version.parameters) {
    const id = params[p.name];
    if (p.type !== 'file' || typeof id !== 'number') continue;
    const row = getDataRow(ctx, id);
    if (!row) throw new Error(`The data record of ${p.name} (${id}) no longer exists`);
    if (row.data_type === 'fasta') {
      const started = Date.now();
      const index = await referenceIndex(ctx, id, kinds, hooks);
      log(
        index.built
          ? `Reference ${row.filename}: built ${kinds.join(', ')} indexes in ${((Date.now() - started) / 1000).toFixed(1)} s`
          : `Reference ${row.filename}: reusing its ${kinds.join(', ')} indexes`,
      );
      files[p.name] = index.fasta;
      continue;
    }
    const dir = join(workDir, 'inputs');
    mkdirSync(dir, { recursive: true });
    const link = join(dir, `${p.name}${extensionOf(row.filename)}`);
    // A resumed run finds its links from the attempt before.
    rmSync(link, { force: true });
    symlinkSync(dataFilePath(ctx, id), link);
    files[p.name] = link;
  }
  return files;
}
