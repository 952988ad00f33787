/**
 * Inline SVG charts for the quality-control report: a line chart and the per-cycle quality box
 * plot. Plain strings, no library, so that the report is one self-contained file that opens
 * offline in any browser.
 */

export const W = 720;
export const H = 260;
const M = { left: 52, right: 16, top: 16, bottom: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

/** Escapes text for HTML and SVG. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

interface Axes {
  x: (v: number) => number;
  y: (v: number) => number;
  svg: string;
}

function axes(xMin: number, xMax: number, yMax: number, xLabel: string, yLabel: string): Axes {
  const xSpan = xMax - xMin || 1;
  const x = (v: number) => M.left + ((v - xMin) / xSpan) * PW;
  const y = (v: number) => M.top + PH - (v / yMax) * PH;
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    parts.push(
      `<line x1="${M.left}" x2="${M.left + PW}" y1="${y(v)}" y2="${y(v)}" class="grid"/>`,
      `<text x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`,
    );
  }
  const step = Math.max(1, Math.ceil(xSpan / 10));
  for (let v = Math.ceil(xMin); v <= xMax; v += step) {
    parts.push(`<text x="${x(v)}" y="${M.top + PH + 16}" text-anchor="middle">${fmt(v)}</text>`);
  }
  parts.push(
    `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + PH}" class="axis"/>`,
    `<line x1="${M.left}" x2="${M.left + PW}" y1="${M.top + PH}" y2="${M.top + PH}" class="axis"/>`,
    `<text x="${M.left + PW / 2}" y="${H - 4}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="12" y="${M.top + PH / 2}" text-anchor="middle" transform="rotate(-90 12 ${M.top + PH / 2})">${esc(yLabel)}</text>`,
  );
  return { x, y, svg: parts.join('') };
}

export interface Series {
  name: string;
  color: string;
  points: Array<[number, number]>;
}

function svg(title: string, body: string, legend = ''): string {
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${body}</svg>${legend}`;
}

function legendOf(series: Series[]): string {
  if (series.length < 2) return '';
  const items = series.map((s) => `<span><i style="background:${s.color}"></i>${esc(s.name)}</span>`);
  return `<div class="legend">${items.join('')}</div>`;
}

/** A line chart of one or more series; `yMax` fixes the scale (percent charts use 100). */
export function lineChart(title: string, series: Series[], xLabel: string, yLabel: string, yMax?: number): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return `<p class="empty">No data.</p>`;
  const xs = all.map((p) => p[0]);
  const top = yMax ?? niceMax(Math.max(...all.map((p) => p[1])));
  const a = axes(Math.min(...xs), Math.max(...xs), top, xLabel, yLabel);
  const lines = series.map((s) => {
    const d = s.points.map(([px, py], i) => `${i ? 'L' : 'M'}${a.x(px).toFixed(1)},${a.y(py).toFixed(1)}`).join('');
    return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.6"/>`;
  });
  return svg(title, a.svg + lines.join(''), legendOf(series));
}

export interface Box {
  position: number;
  mean: number;
  p10: number;
  q1: number;
  median: number;
  q3: number;
  p90: number;
}

/** FastQC-style per-cycle quality: green, amber and red bands, boxes from Q1 to Q3, whiskers 10-90%. */
export function boxChart(title: string, boxes: Box[]): string {
  if (boxes.length === 0) return `<p class="empty">No data.</p>`;
  const top = Math.max(42, niceMax(Math.max(...boxes.map((b) => b.p90))));
  const first = boxes[0]!.position;
  const last = boxes[boxes.length - 1]!.position;
  const a = axes(first - 0.5, last + 0.5, top, 'Position in read (bp)', 'Phred quality');
  const band = (lo: number, hi: number, cls: string) =>
    `<rect x="${M.left}" width="${PW}" y="${a.y(hi)}" height="${a.y(lo) - a.y(hi)}" class="${cls}"/>`;
  const bw = Math.max(1, (PW / boxes.length) * 0.7);
  const shapes = boxes.map((b) => {
    const cx = a.x(b.position);
    return (
      `<line x1="${cx}" x2="${cx}" y1="${a.y(b.p90)}" y2="${a.y(b.p10)}" class="whisker"/>` +
      `<rect x="${cx - bw / 2}" width="${bw}" y="${a.y(b.q3)}" height="${Math.max(0.5, a.y(b.q1) - a.y(b.q3))}" class="box"/>` +
      `<line x1="${cx - bw / 2}" x2="${cx + bw / 2}" y1="${a.y(b.median)}" y2="${a.y(b.median)}" class="median"/>`
    );
  });
  const mean = boxes.map((b, i) => `${i ? 'L' : 'M'}${a.x(b.position).toFixed(1)},${a.y(b.mean).toFixed(1)}`).join('');
  const body =
    band(0, 20, 'bad') +
    band(20, 28, 'fair') +
    band(28, top, 'good') +
    a.svg +
    shapes.join('') +
    `<path d="${mean}" fill="none" class="mean"/>`;
  return svg(title, body);
}

/** A bar chart over labelled categories. */
export function barChart(
  title: string,
  bars: Array<{ label: string; value: number }>,
  yLabel: string,
  yMax?: number,
): string {
  if (bars.length === 0) return `<p class="empty">No data.</p>`;
  const top = yMax ?? niceMax(Math.max(...bars.map((b) => b.value)));
  const a = axes(0, bars.length, top, '', yLabel);
  const slot = PW / bars.length;
  const rects = bars.map((b, i) => {
    const x = M.left + i * slot + slot * 0.15;
    return (
      `<rect x="${x}" width="${slot * 0.7}" y="${a.y(b.value)}" height="${a.y(0) - a.y(b.value)}" class="bar"/>` +
      `<text x="${x + slot * 0.35}" y="${M.top + PH + 30}" text-anchor="middle">${esc(b.label)}</text>`
    );
  });
  const body = a.svg.replace(/<text x="[^"]*" y="[^"]*" text-anchor="middle">[^<]*<\/text>/g, '') + rects.join('');
  return svg(title, body);
}
