/**
 * Pipeline manifests: one JSON file per pipeline under resources/pipelines/ (or the folder the
 * service is configured with), listing its versions, typed parameters, requirements, upstream
 * pipelines and the engine that runs each version. Every manifest is validated at start; a
 * broken one is reported and skipped so that one bad file never takes the service down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Value } from 'typebox/value';
import { PARAMETER_TYPES, type PipelineParameter } from '../../shared/pipelines/parameters';
import { ManifestParameter } from '../../shared/service-api/pipelines';

// The spec's four, then Quality Control and Sequencing (demultiplexing is neither DNA nor RNA analysis:
// it prepares a run's reads). New names go last: a category's id is its place here.
export const CATEGORIES = [
  'RNA Analysis',
  'DNA Analysis',
  'Epigenomics',
  'Single Cell',
  'Quality Control',
  'Sequencing',
] as const;
export type CategoryName = (typeof CATEGORIES)[number];

/** The engines a version may name: built-in workers, workflow engines, or a lab's own worker. */
export type EngineSpec =
  | { kind: 'builtin'; worker: 'qc' | 'trim' | 'demux' }
  | { kind: 'snakemake'; workflow: string }
  | { kind: 'nextflow'; workflow: string; revision?: string }
  | { kind: 'node'; entry: string };

export interface VersionRequirements {
  min_samples: number;
  /** Absent: no limit; 0 for a version that runs on its file parameters alone (Demultiplexing). */
  max_samples?: number;
  required_data_types: string[];
  supported_organisms: string[];
}

export interface ManifestVersion {
  version: string;
  is_latest: boolean;
  engine: EngineSpec;
  /** The label as written in the manifest (builtin:qc, snakemake, nextflow, node:./x). */
  engine_label: string;
  parameters: PipelineParameter[];
  requirements: VersionRequirements;
  /** Programs that must be on PATH for this version to run. */
  tools: string[];
  default_cpus: number;
  /** How many processes a run has, when known in advance: a number, or one per sample. */
  processes: number | 'per_sample' | null;
  /** A MultiQC report over the run's outputs when it completes. */
  multiqc: boolean;
  /**
   * The workflow's rules name conda environment files kept in its folder (Snakemake's `conda:`
   * directive): used with `--use-conda` where conda or mamba is installed, otherwise the rules
   * run with the tools on PATH.
   */
  conda: boolean;
}

export interface PipelineManifest {
  name: string;
  description: string;
  category: CategoryName;
  upstream_pipelines: string[];
  estimated_runtime: string;
  versions: ManifestVersion[];
  file: string;
}

export interface ManifestProblem {
  file: string;
  errors: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function parseEngine(label: unknown, raw: Obj, baseDir: string, at: string, errors: string[]): EngineSpec | null {
  if (typeof label !== 'string') {
    errors.push(`${at}.engine: required (builtin:qc, builtin:trim, builtin:demux, snakemake, nextflow or node:PATH)`);
    return null;
  }
  const builtin = /^builtin:(qc|trim|demux)$/.exec(label);
  if (builtin) return { kind: 'builtin', worker: builtin[1] as 'qc' | 'trim' | 'demux' };
  if (label === 'snakemake' || label === 'nextflow') {
    if (typeof raw.workflow !== 'string' || raw.workflow === '') {
      errors.push(`${at}.workflow: required for engine ${label}`);
      return null;
    }
    if (label === 'snakemake') return { kind: 'snakemake', workflow: resolve(baseDir, raw.workflow) };
    // A local script is relative to the manifest; otherwise it names a pipeline (owner/repo).
    const local = raw.workflow.startsWith('.') || raw.workflow.startsWith('/') || raw.workflow.endsWith('.nf');
    const revision = typeof raw.revision === 'string' ? raw.revision : undefined;
    return { kind: 'nextflow', workflow: local ? resolve(baseDir, raw.workflow) : raw.workflow, revision };
  }
  if (label.startsWith('node:') && label.length > 5) return { kind: 'node', entry: resolve(baseDir, label.slice(5)) };
  errors.push(`${at}.engine: unknown engine "${label}"`);
  return null;
}

/** What each field of a parameter must be, in the words a manifest's author reads. */
const PARAMETER_RULES: Record<string, string> = {
  name: 'an identifier',
  description: 'text',
  type: `one of ${PARAMETER_TYPES.join(', ')}`,
  required: 'true or false',
  choices: 'a list of strings or numbers',
  min: 'a number',
  max: 'a number',
  validation: 'a regular expression',
  items: 'string, integer or float',
  data_types: 'a list of data types, for a file parameter',
};

/**
 * A manifest's parameter: its shape is checked by the API's one parameter schema
 * (ManifestParameter), then what a schema cannot say: a choice has choices, a validation is a
 * regular expression, data types belong to files.
 */
function parseParameter(raw: unknown, at: string, errors: string[]): PipelineParameter | null {
  if (!isObj(raw)) return (void errors.push(`${at}: must be an object`), null);
  const before = errors.length;
  if (!Value.Check(ManifestParameter, raw)) {
    const fields = new Set(Value.Errors(ManifestParameter, raw).map((e) => fieldOf(e.instancePath, e.params)));
    for (const field of fields) errors.push(`${at}.${field}: ${PARAMETER_RULES[field] ?? 'not valid'}`);
    return null;
  }
  const p: ManifestParameter = raw;
  if (p.type === 'choice' && !(p.choices && p.choices.length > 0)) errors.push(`${at}.choices: required for a choice`);
  if (p.validation !== undefined) {
    try {
      new RegExp(p.validation);
    } catch {
      errors.push(`${at}.validation: not a valid regular expression`);
    }
  }
  if (p.data_types !== undefined && p.type !== 'file') errors.push(`${at}.data_types: ${PARAMETER_RULES.data_types}`);
  if (errors.length > before) return null;
  // Only the parameter's own fields: anything else a manifest writes stays out of the catalogue.
  return {
    name: p.name,
    description: p.description ?? '',
    type: p.type,
    required: p.required === true,
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p.choices !== undefined ? { choices: p.choices } : {}),
    ...(p.min !== undefined ? { min: p.min } : {}),
    ...(p.max !== undefined ? { max: p.max } : {}),
    ...(p.validation !== undefined ? { validation: p.validation } : {}),
    ...(p.items !== undefined ? { items: p.items } : {}),
    ...(p.data_types !== undefined ? { data_types: p.data_types.map((t) => t.toLowerCase()) } : {}),
  };
}

/** The top-level field a schema error is about (`/choices/0` is choices; a missing one names itself). */
function fieldOf(instancePath: string, params: unknown): string {
  const first = instancePath.split('/')[1];
  if (first) return first;
  const missing = (params as { requiredProperties?: unknown; missingProperty?: unknown } | undefined) ?? {};
  const named = Array.isArray(missing.requiredProperties) ? missing.requiredProperties[0] : missing.missingProperty;
  return typeof named === 'string' ? named : 'parameter';
}

function parseVersion(raw: unknown, baseDir: string, at: string, errors: string[]): ManifestVersion | null {
  if (!isObj(raw)) return (void errors.push(`${at}: must be an object`), null);
  const before = errors.length;
  if (typeof raw.version !== 'string' || raw.version === '') errors.push(`${at}.version: a non-empty label`);
  const engine = parseEngine(raw.engine, raw, baseDir, at, errors);
  const params = Array.isArray(raw.parameters) ? raw.parameters : raw.parameters === undefined ? [] : null;
  if (params === null) errors.push(`${at}.parameters: a list`);
  const parameters = (params ?? []).map((p, i) => parseParameter(p, `${at}.parameters[${i}]`, errors));
  const names = parameters.filter((p) => p).map((p) => p!.name);
  if (new Set(names).size !== names.length) errors.push(`${at}.parameters: names must be unique`);
  const req = raw.requirements === undefined ? {} : raw.requirements;
  if (!isObj(req)) errors.push(`${at}.requirements: an object`);
  const r = isObj(req) ? req : {};
  if (r.min_samples !== undefined && !(Number.isInteger(r.min_samples) && (r.min_samples as number) >= 0)) {
    errors.push(`${at}.requirements.min_samples: a whole number >= 0`);
  }
  if (
    r.max_samples !== undefined &&
    !(Number.isInteger(r.max_samples) && (r.max_samples as number) >= ((r.min_samples as number | undefined) ?? 1))
  ) {
    errors.push(`${at}.requirements.max_samples: a whole number, at least min_samples`);
  }
  for (const list of ['required_data_types', 'supported_organisms'] as const) {
    if (r[list] !== undefined && !isStrList(r[list])) errors.push(`${at}.requirements.${list}: a list of strings`);
  }
  if (raw.tools !== undefined && !isStrList(raw.tools)) errors.push(`${at}.tools: a list of program names`);
  if (raw.default_cpus !== undefined && !(Number.isInteger(raw.default_cpus) && (raw.default_cpus as number) > 0)) {
    errors.push(`${at}.default_cpus: a whole number > 0`);
  }
  const processes = raw.processes;
  if (
    processes !== undefined &&
    processes !== 'per_sample' &&
    !(Number.isInteger(processes) && (processes as number) > 0)
  ) {
    errors.push(`${at}.processes: a whole number > 0 or "per_sample"`);
  }
  if (errors.length > before || !engine) return null;
  return {
    version: raw.version as string,
    is_latest: raw.is_latest === true,
    engine,
    engine_label: raw.engine as string,
    parameters: parameters as PipelineParameter[],
    requirements: {
      min_samples: (r.min_samples as number | undefined) ?? 1,
      ...(r.max_samples !== undefined ? { max_samples: r.max_samples as number } : {}),
      required_data_types: (r.required_data_types as string[] | undefined) ?? [],
      supported_organisms: (r.supported_organisms as string[] | undefined) ?? [],
    },
    tools: (raw.tools as string[] | undefined) ?? [],
    default_cpus: (raw.default_cpus as number | undefined) ?? 1,
    processes: (processes as number | 'per_sample' | undefined) ?? null,
    multiqc: raw.multiqc === true,
    conda: raw.conda === true,
  };
}

/** Validates one parsed manifest; returns the manifest or the list of what is wrong. */
export function validateManifest(raw: unknown, file: string): { manifest?: PipelineManifest; errors: string[] } {
  const errors: string[] = [];
  if (!isObj(raw)) return { errors: ['the manifest must be a JSON object'] };
  if (typeof raw.name !== 'string' || raw.name.trim() === '') errors.push('name: required');
  if (typeof raw.category !== 'string' || !(CATEGORIES as readonly string[]).includes(raw.category)) {
    errors.push(`category: one of ${CATEGORIES.join(', ')}`);
  }
  if (raw.upstream_pipelines !== undefined && !isStrList(raw.upstream_pipelines)) {
    errors.push('upstream_pipelines: a list of pipeline names');
  }
  if (!Array.isArray(raw.versions) || raw.versions.length === 0) errors.push('versions: at least one version');
  const versions = (Array.isArray(raw.versions) ? raw.versions : []).map((v, i) =>
    parseVersion(v, dirname(file), `versions[${i}]`, errors),
  );
  const labels = versions.filter((v) => v).map((v) => v!.version);
  if (new Set(labels).size !== labels.length) errors.push('versions: labels must be unique');
  if (versions.length > 0 && versions.filter((v) => v?.is_latest).length !== 1) {
    errors.push('versions: exactly one version must have is_latest: true');
  }
  if (errors.length) return { errors };
  return {
    errors,
    manifest: {
      name: (raw.name as string).trim(),
      description: typeof raw.description === 'string' ? raw.description : '',
      category: raw.category as CategoryName,
      upstream_pipelines: (raw.upstream_pipelines as string[] | undefined) ?? [],
      estimated_runtime: typeof raw.estimated_runtime === 'string' ? raw.estimated_runtime : '',
      versions: versions as ManifestVersion[],
      file,
    },
  };
}

/** Reads every *.json manifest in a folder; broken files and duplicate names become problems. */
export function loadManifests(dir: string): { manifests: PipelineManifest[]; problems: ManifestProblem[] } {
  const manifests: PipelineManifest[] = [];
  const problems: ManifestProblem[] = [];
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch (err) {
    return { manifests, problems: [{ file: dir, errors: [`cannot read the folder: ${(err as Error).message}`] }] };
  }
  for (const name of files) {
    const file = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      problems.push({ file, errors: [`not valid JSON: ${(err as Error).message}`] });
      continue;
    }
    const { manifest, errors } = validateManifest(raw, file);
    if (!manifest) problems.push({ file, errors });
    else if (manifests.some((m) => m.name === manifest.name)) {
      problems.push({ file, errors: [`name: "${manifest.name}" is already defined by another manifest`] });
    } else manifests.push(manifest);
  }
  return { manifests, problems };
}
