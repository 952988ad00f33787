/**
 * The fixtures' fault check (fixtures.ts) finds what a service writes when an answer does not
 * fit its schema or fails otherwise, and nothing else. The first browser run with response
 * checks on failed this way on a real hole (the QC summary's per-file flag detail).
 */
import { expect, internalErrors, test } from './fixtures';

test('the fault check finds an INTERNAL line and a schema hole, and passes other log lines', () => {
  const stderr = [
    '[service] listening on http://127.0.0.1:40000',
    '[service] INTERNAL GET /api/executions/1/qc: Error: The answer of GET /api/executions/:id/qc (200) does not fit its response schema: /samples/0/modules/0: field detail is not in the schema',
    '    at responseCheck (out/cli/service.js:1:1)',
    '[service] limit hit: RATE_LIMITED on POST /api/login from 127.0.0.1: too many attempts',
    '[service] INTERNAL POST /api/lanes: Error: boom',
  ].join('\n');
  expect(internalErrors(stderr)).toEqual([
    expect.stringContaining('does not fit its response schema'),
    '[service] INTERNAL POST /api/lanes: Error: boom',
  ]);
  expect(internalErrors('[service] sign-in failed for "x" from 127.0.0.1\n')).toEqual([]);
});
