import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadManifests, validateManifest } from '../../../src/service/pipelines/manifest';
import { tempDir } from '../../helpers/temp';

const SHIPPED = fileURLToPath(new URL('../../../resources/pipelines', import.meta.url));

describe('pipeline manifests', () => {
  const dir = tempDir('laneway-manifest-unit-');
  afterAll(() => dir.remove());

  it('accepts every shipped manifest', () => {
    const { manifests, problems } = loadManifests(SHIPPED);
    expect(problems).toEqual([]);
    expect(manifests).toHaveLength(5);
    const align = manifests.find((m) => m.name === 'Read Alignment')!;
    expect(align.versions.map((v) => v.engine.kind)).toEqual(['snakemake', 'snakemake', 'snakemake', 'snakemake']);
    const calling = manifests.find((m) => m.name === 'Variant Calling')!;
    expect(calling.versions.map((v) => [v.version, v.engine.kind, v.is_latest])).toEqual([
      ['1.0.0', 'nextflow', false],
      ['2.0.0', 'snakemake', false],
      ['2.1.0', 'snakemake', true],
    ]);
    expect(calling.versions[1]!.parameters.find((p) => p.name === 'reference')!.data_types).toEqual(['fasta']);
    // Demultiplexing runs on its input file and takes no samples.
    expect(manifests.find((m) => m.name === 'Demultiplexing')!.versions[0]!.requirements).toMatchObject({
      min_samples: 0,
      max_samples: 0,
    });
    expect(align.versions[0]!.engine).toMatchObject({
      workflow: join(SHIPPED, 'workflows/read-alignment/1.0.0/Snakefile'),
    });
  });

  it('reports what is wrong with a broken manifest, field by field', () => {
    const { manifest, errors } = validateManifest(
      {
        name: '',
        category: 'Astrology',
        upstream_pipelines: 'QC',
        versions: [
          {
            version: '',
            engine: 'builtin:nope',
            parameters: [
              { name: '1x', type: 'colour' },
              { name: 'c', type: 'choice' },
              { name: 'r', type: 'string', validation: '[' },
            ],
            requirements: { min_samples: -1, required_data_types: 'fastq' },
            tools: 'samtools',
          },
          { version: 'x', is_latest: true, engine: 'snakemake' },
          { version: 'y', engine: 'builtin:qc', requirements: { min_samples: 2, max_samples: 1 } },
        ],
      },
      '/tmp/m.json',
    );
    expect(manifest).toBeUndefined();
    for (const expected of [
      'name: required',
      'category: one of',
      'upstream_pipelines: a list',
      'versions[0].version: a non-empty label',
      'versions[0].engine: unknown engine "builtin:nope"',
      'versions[0].parameters[0].name: an identifier',
      'versions[0].parameters[0].type: one of',
      'versions[0].parameters[1].choices: required for a choice',
      'versions[0].parameters[2].validation: not a valid regular expression',
      'versions[0].requirements.min_samples',
      'versions[0].requirements.required_data_types',
      'versions[0].tools',
      'versions[1].workflow: required for engine snakemake',
      'versions[2].requirements.max_samples: a whole number, at least min_samples',
    ]) {
      expect(
        errors.some((e) => e.startsWith(expected)),
        expected,
      ).toBe(true);
    }
  });

  it('needs exactly one latest version and unique labels', () => {
    const two = validateManifest(
      {
        name: 'A',
        category: 'Epigenomics',
        versions: [
          { version: '1', is_latest: true, engine: 'builtin:qc' },
          { version: '1', is_latest: true, engine: 'builtin:qc' },
        ],
      },
      '/x.json',
    );
    expect(two.errors).toContain('versions: labels must be unique');
    expect(two.errors).toContain('versions: exactly one version must have is_latest: true');
  });

  it('loads a folder: bad JSON, bad fields and duplicate names become problems, the rest loads', () => {
    writeFileSync(
      join(dir.path, 'a.json'),
      JSON.stringify({
        name: 'A',
        category: 'Single Cell',
        versions: [{ version: '1', is_latest: true, engine: 'builtin:qc' }],
      }),
    );
    writeFileSync(join(dir.path, 'b.json'), '{ nope');
    writeFileSync(join(dir.path, 'c.json'), JSON.stringify({ name: 'C' }));
    writeFileSync(
      join(dir.path, 'd.json'),
      JSON.stringify({
        name: 'A',
        category: 'Single Cell',
        versions: [{ version: '2', is_latest: true, engine: 'builtin:trim' }],
      }),
    );
    writeFileSync(join(dir.path, 'readme.md'), '# not a manifest');
    const { manifests, problems } = loadManifests(dir.path);
    expect(manifests.map((m) => m.name)).toEqual(['A']);
    expect(manifests[0]!.versions[0]!.requirements).toEqual({
      min_samples: 1,
      required_data_types: [],
      supported_organisms: [],
    });
    expect(problems.map((p) => p.file.split('/').pop())).toEqual(['b.json', 'c.json', 'd.json']);
    expect(problems[0]!.errors[0]).toMatch(/not valid JSON/);
    expect(problems[2]!.errors[0]).toMatch(/already defined/);
  });

  it('reports an unreadable folder instead of throwing', () => {
    const { manifests, problems } = loadManifests(join(dir.path, 'missing'));
    expect(manifests).toEqual([]);
    expect(problems[0]!.errors[0]).toMatch(/cannot read the folder/);
  });
});
