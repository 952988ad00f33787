/**
 * A MultiQC report made whole offline: the outside script tags of Debian's MultiQC template
 * (multiqc 1.14+dfsg, /usr/lib/python3/dist-packages/multiqc/templates/default/includes.html:
 * Highcharts from code.highcharts.com, lz-string and FileSaver from cdnjs, clipboard.js from a
 * file:// path) are dropped and the stand-ins come before the report's first script.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeReportOffline } from '../../../src/service/tools/multiqc/multiqc-offline';

// Built tag by tag after the template's lines, not copied from a report.
const report = [
  '<!DOCTYPE html><html><head><title>MultiQC</title>',
  '<script type="text/javascript">/* jquery */ window.$ = function () {};</script>',
  '<script src="https://code.highcharts.com/highcharts.js" type="text/javascript"></script>',
  '<script src="https://code.highcharts.com/highcharts.heatmap.js" type="text/javascript"></script>',
  '<script src="file:///usr/share/javascript/clipboard.js" type="text/javascript"></script>',
  '<script src="https://cdnjs.cloudflare.com/ajax/libs/lz-string/1.4.4/lz-string.min.js" type="text/javascript"></script>',
  '<script type="text/javascript">mqc_plots = JSON.parse(LZString.decompressFromBase64(mqc_compressed_plotdata));</script>',
  '</head><body><img src="data:image/png;base64,AAAA"></body></html>',
].join('\n');

describe('makeReportOffline', () => {
  it('drops every outside script, keeps the inline ones, and puts the stand-ins first', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mqc-offline-')), 'multiqc_report.html');
    writeFileSync(path, report);
    expect(makeReportOffline(path)).toBe(4);
    const html = readFileSync(path, 'utf8');
    expect(html).not.toMatch(/src="(https?:|file:)/);
    expect(html).toContain('decompressFromBase64(mqc_compressed_plotdata)');
    expect(html).toContain('<img src="data:image/png;base64,AAAA">');
    const shim = html.indexOf('laneway-offline-shim');
    expect(shim).toBeGreaterThan(0);
    expect(shim).toBeLessThan(html.indexOf('/* jquery */'));
    // Twice is once.
    expect(makeReportOffline(path)).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(html);
  });
});
