/**
 * Bases2Fastq's RunStats.json (written at its output's root when it finishes): the share of the
 * run's polonies no index matched, for the run's report. MultiQC's bases2fastq module reads the
 * run-level `NumPolonies` and `PercentAssignedReads`; later Bases2Fastq versions carry them per
 * lane in `Lanes[]`, which public readers add up weighted by each lane's polonies. Either form
 * is read; anything else is "share unknown", never an error.
 */
interface Counts {
  polonies: number;
  assigned: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

function counts(o: Record<string, unknown>): Counts | null {
  const polonies = num(o.NumPolonies);
  const percent = num(o.PercentAssignedReads);
  if (polonies === null || percent === null || percent > 100) return null;
  return { polonies, assigned: (polonies * percent) / 100 };
}

/** The unassigned polonies and their fraction of the run, or null when the file does not say. */
export function readElementUnassignedShare(text: string): { reads: number; fraction: number } | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object') return null;
  const run = doc as Record<string, unknown>;
  let total = counts(run);
  if (!total && Array.isArray(run.Lanes)) {
    const lanes = (run.Lanes as unknown[]).map((l) =>
      l && typeof l === 'object' ? counts(l as Record<string, unknown>) : null,
    );
    if (lanes.length && lanes.every((l) => l !== null))
      total = lanes.reduce((s, l) => ({ polonies: s.polonies + l!.polonies, assigned: s.assigned + l!.assigned }), {
        polonies: 0,
        assigned: 0,
      });
  }
  if (!total || total.polonies === 0) return null;
  const reads = Math.round(total.polonies - total.assigned);
  return { reads, fraction: reads / total.polonies };
}
