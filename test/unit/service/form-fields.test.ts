/**
 * Multipart form fields are checked by a compiled check (src/service/http/form-fields.ts) and
 * refused with the walking checker's errors. The two must agree on every form, or a form would
 * pass the fast check that the schema refuses, or be refused with no field named: both field
 * schemas of the service, on forms as clients and attackers send them.
 */
import type { TObject } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { formFields } from '../../../src/service/http/form-fields';
import { ApiError } from '../../../src/service/http/api-error';
import { LaneUploadFields } from '../../../src/shared/service-api/lanes';
import { UploadChunkFields } from '../../../src/shared/service-api/uploads';

const sha = 'ab'.repeat(32);
const upload = { filename: 'a.fastq', chunk: '0', total_chunks: '1', file_id: 'f-1' };

/** Forms for the upload schema: valid ones, then each kind of wrong field. */
const uploadForms: Array<Record<string, unknown>> = [
  upload,
  { ...upload, total_size: ' 102400 ', checksum: sha, chunk_checksum: sha.toUpperCase() },
  { ...upload, file_id: 'ü'.repeat(200) },
  { ...upload, file_id: '😀'.repeat(100) },
  { ...upload, extra: 'kept as the multipart parser gives it' },
  { ...upload, file_id: 'ü'.repeat(201) },
  { ...upload, file_id: 'a\u0000b' },
  { ...upload, file_id: 'tab\there' },
  { ...upload, file_id: 'del\u007f' },
  { ...upload, file_id: '' },
  { ...upload, filename: '' },
  { ...upload, chunk: '-1' },
  { ...upload, chunk: '1.5' },
  { ...upload, chunk: '1e3' },
  { ...upload, chunk: '1'.repeat(21) },
  { ...upload, chunk: '0\n1' },
  { ...upload, total_chunks: '' },
  { ...upload, total_size: 'NaN' },
  { ...upload, checksum: sha.slice(1) },
  { ...upload, checksum: `${sha}\n` },
  { ...upload, chunk_checksum: 'zz'.repeat(32) },
  { ...upload, chunk: 0 },
  { filename: 'a.fastq', chunk: '0', total_chunks: '1' },
  {},
];

const lane = { name: 'Lane 1' };
/** Forms for the lane schema's optional fields. */
const laneForms: Array<Record<string, unknown>> = [
  lane,
  { ...lane, barcode_source: 'header', barcode_read: '2', adapter: ' AGATCGGAAG ', ignore_warnings: 'TRUE' },
  { ...lane, barcode_source: '', barcode_read: '', adapter: '', ignore_warnings: '' },
  { ...lane, barcode_source: 'sideways' },
  { ...lane, barcode_read: '3' },
  { ...lane, adapter: 'AC' },
  { ...lane, adapter: 'ACGTN' },
  { ...lane, adapter: 'A'.repeat(101) },
  { ...lane, ignore_warnings: 'yes' },
  { ...lane, layout: 'N'.repeat(201) },
  {},
];

const cases: Array<[string, TObject, Array<Record<string, unknown>>]> = [
  ['upload chunk fields', UploadChunkFields, uploadForms],
  ['lane fields', LaneUploadFields, laneForms],
];

describe('form fields: the compiled check agrees with the schema', () => {
  for (const [label, schema, forms] of cases) {
    it(`${label}: passes what the schema passes, and refuses the rest naming a field`, () => {
      let refused = 0;
      for (const form of forms) {
        const raw = form as Record<string, string>;
        if (Value.Check(schema, form)) {
          expect(formFields(schema, raw, 'Invalid fields'), JSON.stringify(form)).toBe(raw);
          continue;
        }
        refused++;
        let thrown: unknown;
        try {
          formFields(schema, raw, 'Invalid fields');
        } catch (err) {
          thrown = err;
        }
        expect(thrown, JSON.stringify(form)).toBeInstanceOf(ApiError);
        const { code, extras } = thrown as ApiError;
        expect(code).toBe('VALIDATION_ERROR');
        expect(Object.keys(extras.fields as object).length, JSON.stringify(form)).toBeGreaterThan(0);
      }
      // The lists hold both kinds, so both branches ran.
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(forms.length);
    });
  }
});
