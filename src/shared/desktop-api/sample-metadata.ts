/**
 * The service refuses a sample without Organism and Category (POST /api/samples/ answers
 * VALIDATION_ERROR on `metadata.organism` / `metadata.category`). The core and the renderer
 * both check it before anything is uploaded, with this one rule.
 */

/** The required metadata fields, as the service's template labels them, with their keys. */
export const REQUIRED_SAMPLE_FIELDS = [
  { key: 'organism', label: 'Organism' },
  { key: 'category', label: 'Category' },
] as const;

function valueOf(metadata: Record<string, unknown> | undefined, key: string): unknown {
  if (!metadata) return undefined;
  // The service matches these two keys case-insensitively.
  const found = Object.keys(metadata).find((k) => k.trim().toLowerCase() === key);
  return found === undefined ? undefined : metadata[found];
}

/** The labels of the required fields missing from a sample's metadata (empty when complete). */
export function missingSampleMetadata(metadata: Record<string, unknown> | undefined): string[] {
  return REQUIRED_SAMPLE_FIELDS.filter(({ key }) => {
    const v = valueOf(metadata, key);
    return v === undefined || v === null || String(v).trim() === '';
  }).map((f) => f.label);
}

/** One sentence naming the samples that cannot be created yet, or null when all can. */
export function missingMetadataMessage(
  samples: ReadonlyArray<{ name: string; metadata?: Record<string, unknown> }>,
): string | null {
  const lacking = samples.filter((s) => missingSampleMetadata(s.metadata).length > 0);
  if (!lacking.length) return null;
  const fields = [...new Set(lacking.flatMap((s) => missingSampleMetadata(s.metadata)))].join(' and ');
  const names = lacking
    .slice(0, 3)
    .map((s) => s.name)
    .join(', ');
  const more = lacking.length > 3 ? ` and ${lacking.length - 3} more` : '';
  return `Choose ${fields} for ${lacking.length === 1 ? 'sample' : 'samples'} ${names}${more}: the service refuses samples without them`;
}
