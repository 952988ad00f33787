/** The launch form's checks of selected samples against a version's requirements. */
import type { PipelineVersion, Sample } from '../../service-client/types';

/** The organism a sample's metadata names, whatever the key's case. */
export function organismOf(s: Sample): string | null {
  const m = s.metadata ?? {};
  const v = m.Organism ?? m.organism;
  return typeof v === 'string' && v ? v : null;
}

function dataTypesOf(s: Sample): string[] | null {
  const files = s.data ?? [s.read1, s.read2].filter((f) => typeof f === 'object' && f !== null);
  const types = (files as Array<{ data_type?: string }>).map((f) => f.data_type).filter((t): t is string => !!t);
  return types.length ? types : null;
}

/** Why one sample cannot go into this version, or null when it can (as far as we can tell). */
export function sampleProblem(s: Sample, req: PipelineVersion['requirements']): string | null {
  const organisms = req?.supported_organisms ?? [];
  const organism = organismOf(s);
  if (organisms.length && organism && !organisms.includes(organism))
    return `organism ${organism} is not supported (supported: ${organisms.join(', ')})`;
  const needed = req?.required_data_types ?? [];
  const have = dataTypesOf(s);
  if (needed.length && have) {
    const missing = needed.filter((t) => !have.includes(t));
    if (missing.length) return `has no ${missing.join(', ')} data`;
  }
  return null;
}
