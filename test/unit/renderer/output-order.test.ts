import { describe, expect, it } from 'vitest';
import { orderOutputs } from '../../../src/renderer/src/features/executions/output-order';

describe('an execution page lists MultiQC first', () => {
  it('puts the MultiQC report first, the other HTML reports next, the rest in their order', () => {
    // The shape of a FASTQ QC run's outputs: per-sample JSON and HTML, MultiQC last.
    const outputs = [
      { filename: 'liver_1.json', data_type: 'json' },
      { filename: 'liver_1.html', data_type: 'html' },
      { filename: 'liver_2.json', data_type: 'json' },
      { filename: 'liver_2.html', data_type: 'html' },
      { filename: 'multiqc_report.html', data_type: 'multiqc' },
    ];
    expect(orderOutputs(outputs).map((o) => o.filename)).toEqual([
      'multiqc_report.html',
      'liver_1.html',
      'liver_2.html',
      'liver_1.json',
      'liver_2.json',
    ]);
    expect(outputs[0]!.filename).toBe('liver_1.json');
  });

  it('knows a MultiQC report by its file name when the type says html', () => {
    const ordered = orderOutputs([
      { filename: 'a.txt', data_type: 'text' },
      { filename: 'run_multiqc_report.html', data_type: 'html' },
    ]);
    expect(ordered[0]!.filename).toBe('run_multiqc_report.html');
  });
});
