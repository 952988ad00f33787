/**
 * Makes a MultiQC report whole offline. Debian's MultiQC (1.14+dfsg) does not ship Highcharts,
 * lz-string, FileSaver or the toast plugin: its template (templates/default/includes.html)
 * loads them from code.highcharts.com and cdnjs, and clipboard.js from a file:// path. On a lab
 * network without internet, and in the app's viewer (whose policy allows no outside script),
 * those never load; the report's plotting script then stops at `LZString` and leaves "Loading
 * report.." on screen. Laneway asks MultiQC for image plots (`--flat`), which need neither
 * library, so the outside script tags are dropped (no request leaves the lab when the report is
 * opened) and two small stand-ins let the report's own scripts (toolbox, tables, plot switches)
 * finish loading.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Script tags that load from outside the file: http(s), protocol-relative or file URLs. */
const OUTSIDE_SCRIPT = /<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:|file:|\/\/)[^>]*>\s*<\/script>/gi;

/** Marks a report already made whole, so that running this twice changes nothing. */
const MARK = 'laneway-offline-shim';

const SHIM =
  `<script type="text/javascript" id="${MARK}">` +
  // Flat plots carry no data for Highcharts to draw: an empty set and inert defaults suffice.
  'window.LZString=window.LZString||{decompressFromBase64:function(){return "{}";}};' +
  'window.Highcharts=window.Highcharts||{getOptions:function(){return {};},setOptions:function(){},charts:[]};' +
  '</script>';

/** Rewrites the report at `path`; answers how many outside script tags were dropped. */
export function makeReportOffline(path: string): number {
  const html = readFileSync(path, 'utf8');
  if (html.includes(MARK)) return 0;
  let dropped = 0;
  let out = html.replace(OUTSIDE_SCRIPT, () => {
    dropped++;
    return '';
  });
  // Before the report's first script, so that the stand-ins exist when its scripts start.
  const first = out.search(/<script\b/i);
  out = first >= 0 ? `${out.slice(0, first)}${SHIM}${out.slice(first)}` : out.replace(/<\/head>/i, `${SHIM}</head>`);
  writeFileSync(path, out);
  return dropped;
}
