/**
 * MultiQC writes the report title and sample names into its HTML verbatim (tried with Debian's
 * multiqc: `--title '<script>alert(1)</script>'` lands as a live script tag), and a report is a
 * file people open in a browser. So every name of ours reaches MultiQC as text only: the title
 * is passed with the markup characters replaced by look-alikes, and since sample names also
 * come from inside the tools' outputs (FastQC's Filename, fastp's command), the finished report
 * is scrubbed of every name we know that carries markup.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const LOOKALIKE: Record<string, string> = { '<': '‹', '>': '›', '"': '”', "'": '’', '&': '＆', '`': 'ˋ' };
const MARKUP = /[<>"'&`]/g;

/** The text with HTML's special characters replaced by look-alikes, and no control characters. */
export function asReportText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(MARKUP, (c) => LOOKALIKE[c]!);
}

/** Rewrites the report so that none of `names` appears with its markup; answers how many were replaced. */
export function scrubReport(path: string, names: Array<string | null | undefined>): number {
  const risky = [...new Set(names.filter((n): n is string => !!n && /[<>]/.test(n)))].sort(
    (a, b) => b.length - a.length,
  );
  if (risky.length === 0) return 0;
  let html = readFileSync(path, 'utf8');
  let replaced = 0;
  for (const name of risky) {
    const parts = html.split(name);
    replaced += parts.length - 1;
    html = parts.join(asReportText(name));
  }
  if (replaced) writeFileSync(path, html);
  return replaced;
}
