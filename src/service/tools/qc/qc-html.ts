/**
 * The quality-control HTML report: one self-contained file (inline CSS and SVG, no scripts, no
 * external references) so that it can be downloaded, mailed and opened offline.
 */
import type { QcFlag } from './qc-flags';
import type { QcResult } from './qc-result';
import { barChart, boxChart, esc, lineChart, type Series } from './svg-charts';

const COLORS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#e6ab02'];

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:780px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 8px}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:16px;margin:16px 0}
table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #eceff3;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px;word-break:break-all}
svg{width:100%;height:auto;font-size:11px;fill:#444}.grid{stroke:#eceff3}.axis{stroke:#888}
.good{fill:#e3f4e1}.fair{fill:#fbf0d6}.bad{fill:#f8dfdc}.box{fill:#f3e07a;stroke:#6b5d00;stroke-width:.5}
.whisker{stroke:#555;stroke-width:.7}.median{stroke:#c0392b;stroke-width:1.2}.mean{stroke:#2c5fa8;stroke-width:1.4}
.bar{fill:#2c5fa8}.legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;margin-top:4px}
.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}.muted{color:#667}
.flag{display:inline-block;min-width:40px;padding:1px 6px;border-radius:4px;font-weight:600;text-align:center}
.flag-pass{background:#e3f4e1;color:#1e5e1a}.flag-warn{background:#fbf0d6;color:#7a5200}.flag-fail{background:#f8dfdc;color:#8e1c12}
h2 .flag{font-size:12px;margin-left:8px;vertical-align:middle}
`;

/**
 * Below this share of bases at Q30 or better a run is flagged: sequencer makers specify 75% to
 * 85% for their short-read kits, so below 80% is worth a look before analysis (a 7.5% run went
 * unflagged, issue 16 item 12).
 */
export const LOW_Q30 = 0.8;
const LOW_Q30_NOTE = 'low: under 80% of bases reach Q30; check the run before analysing it';

function pct(x: number): string {
  return `${(100 * x).toFixed(2)}%`;
}

function num(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

function summaryTable(r: QcResult): string {
  const s = r.summary;
  const rows: Array<[string, string]> = [
    ['Reads', num(s.total_reads)],
    ['Bases', num(s.total_bases)],
    [
      'Read length',
      s.min_length === s.max_length
        ? `${s.min_length}`
        : `${s.min_length}-${s.max_length} (mean ${s.mean_length.toFixed(1)})`,
    ],
    ['Q20 bases', `${num(s.q20_bases)} (${pct(s.q20_rate)})`],
    [
      'Q30 bases',
      `${num(s.q30_bases)} (${pct(s.q30_rate)})${s.total_bases > 0 && s.q30_rate < LOW_Q30 ? ` ⚠ ${LOW_Q30_NOTE}` : ''}`,
    ],
    ['GC content', pct(s.gc_content)],
    ['N bases', num(s.n_bases)],
    ['Duplicate reads (sampled)', pct(r.duplication.duplicate_rate)],
  ];
  return `<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td class="n">${esc(v)}</td></tr>`).join('')}</table>`;
}

function overrepresentedTable(r: QcResult): string {
  if (r.overrepresented_sequences.length === 0) return '<p>No sequence makes up more than 0.1% of the sample.</p>';
  const rows = r.overrepresented_sequences.map(
    (o) =>
      `<tr><td><code>${esc(o.sequence)}</code></td><td class="n">${num(o.count)}</td><td class="n">${o.percent.toFixed(2)}%</td><td>${esc(o.possible_source)}</td></tr>`,
  );
  return `<table><tr><th>Sequence</th><th>Count</th><th>Percent</th><th>Possible source</th></tr>${rows.join('')}</table>`;
}

function badge(flag: QcFlag | undefined): string {
  if (!flag) return '';
  return `<span class="flag flag-${flag.status}" title="${esc(flag.detail)}">${flag.status.toUpperCase()}</span>`;
}

function flagsTable(r: QcResult): string {
  const rows = r.flags.map(
    (f) => `<tr><td>${badge(f)}</td><th>${esc(f.title)}</th><td class="muted">${esc(f.detail)}</td></tr>`,
  );
  return `<table>${rows.join('')}</table>`;
}

function section(title: string, body: string, note = '', flag?: QcFlag): string {
  return `<section><h2>${esc(title)}${badge(flag)}</h2>${note ? `<p class="muted">${esc(note)}</p>` : ''}${body}</section>`;
}

/** "Sample S1: reads_R1.fastq.gz", or the file name alone outside a pipeline. */
export function reportTitle(r: QcResult): string {
  return r.sample !== undefined ? `${r.sample}: ${r.file}` : r.file;
}

/** Renders the report for one result. */
export function renderQcHtml(r: QcResult, generatedAt = new Date()): string {
  const content: Series[] = (['a', 'c', 'g', 't', 'n'] as const).map((b, i) => ({
    name: b.toUpperCase(),
    color: COLORS[i]!,
    points: r.per_position_content.map((p) => [p.position, p[b]] as [number, number]),
  }));
  const adapters: Series[] = r.adapter_content.adapters.map((a, i) => ({
    name: a.name,
    color: COLORS[i % COLORS.length]!,
    points: r.adapter_content.positions.map((p) => [p.position, p.percent[i] ?? 0] as [number, number]),
  }));
  const gcSeries: Series[] = [
    { name: 'Reads', color: '#c0392b', points: r.gc_distribution.map((n, i) => [i, n] as [number, number]) },
  ];
  const lengthSeries: Series[] = [
    {
      name: 'Reads',
      color: '#2c5fa8',
      points: r.length_distribution.map((l) => [l.length, l.count] as [number, number]),
    },
  ];
  const seqQual: Series[] = [
    {
      name: 'Reads',
      color: '#2c5fa8',
      points: r.per_sequence_quality.map((q) => [q.quality, q.count] as [number, number]),
    },
  ];
  const dup = r.duplication;
  const flag = (module: string) => r.flags.find((f) => f.module === module);
  const parts = [
    `<header><h1>Quality control: ${esc(reportTitle(r))}</h1><p class="muted">${
      r.sample !== undefined ? `Sample ${esc(r.sample)}, file ${esc(r.file)}. ` : ''
    }Laneway QC, ${esc(generatedAt.toISOString())}${r.truncated ? ' (test mode: first reads only)' : ''}</p></header>`,
    section('Summary', summaryTable(r)),
    section('Flags', flagsTable(r), "Pass, warn or fail per module with FastQC's default limits (its limits.txt)."),
    section(
      'Per-position quality',
      boxChart('Quality by position', r.per_position_quality),
      'Boxes: 25-75%, whiskers: 10-90%, red line: median, blue line: mean.',
      flag('per_base_quality'),
    ),
    section(
      'Per-read mean quality',
      lineChart('Reads by mean quality', seqQual, 'Mean Phred quality', 'Reads'),
      '',
      flag('per_sequence_quality'),
    ),
    section(
      'Per-position base content',
      lineChart('Base content by position', content, 'Position in read (bp)', '% of bases', 100),
      '',
      flag('per_base_sequence_content'),
    ),
    section(
      'GC content per read',
      lineChart('Reads by GC content', gcSeries, 'GC content (%)', 'Reads'),
      '',
      flag('per_sequence_gc_content'),
    ),
    section(
      'Read length distribution',
      r.length_distribution.length <= 40
        ? barChart(
            'Reads by length',
            r.length_distribution.map((l) => ({ label: String(l.length), value: l.count })),
            'Reads',
          )
        : lineChart('Reads by length', lengthSeries, 'Read length (bp)', 'Reads'),
      '',
      flag('sequence_length_distribution'),
    ),
    section(
      'Adapter content',
      lineChart('Adapter content by position', adapters, 'Position in read (bp)', '% of reads', 100),
      'Cumulative percent of reads in which the adapter starts at or before each position.',
      flag('adapter_content'),
    ),
    section(
      'Sequence duplication',
      barChart(
        'Duplication levels',
        dup.levels.map((l) => ({ label: l.copies, value: l.percent_of_reads })),
        '% of reads',
        100,
      ),
      `${num(dup.sampled_reads)} reads sampled; ${dup.percent_remaining_if_deduplicated.toFixed(2)}% would remain after deduplication.`,
      flag('sequence_duplication_levels'),
    ),
    section('Overrepresented sequences', overrepresentedTable(r), '', flag('overrepresented_sequences')),
  ];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>QC: ${esc(
    reportTitle(r),
  )}</title><style>${CSS}</style></head><body><main>${parts.join('\n')}</main></body></html>\n`;
}
