/**
 * The multipart builder's boundary: the longest RFC 2046 allows (70 characters), of lower-case
 * letters, so that the service's boundary search skips far over FASTQ; fresh for every body. A
 * body round-trips through busboy, the service's parser, with a file whose bytes hold text like
 * the framing.
 */
import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '../../src/main/core/uploads/multipart';
import { multipart } from '../../src/shared/service-client/multipart';

function parse(contentType: string, body: Buffer): Promise<{ fields: Record<string, string>; file: Buffer }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const parts: Buffer[] = [];
    const bb = busboy({ headers: { 'content-type': contentType } });
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (_name, stream) => stream.on('data', (d: Buffer) => parts.push(d)));
    bb.on('close', () => resolve({ fields, file: Buffer.concat(parts) }));
    bb.on('error', reject);
    bb.end(body);
  });
}

describe('multipart boundary', () => {
  it('is 70 lower-case characters, fresh for every body', () => {
    const boundaries = Array.from({ length: 50 }, () => multipart({}, []).contentType.split('boundary=')[1]!);
    for (const b of boundaries) expect(b).toMatch(/^----laneway[a-z]{59}$/);
    expect(new Set(boundaries).size).toBe(boundaries.length);
  });

  it("round-trips through the service's parser, whatever the file holds", async () => {
    const form = multipart({ chunk: '0', filename: 'a.fastq' }, []);
    const boundary = form.contentType.split('boundary=')[1]!;
    // A file holding FASTQ, the framing's start and a near miss of this very boundary: its last
    // letter changed (always changed: an 'x' for a boundary ending in 'x' was the boundary itself,
    // one body in 26, and busboy then rightly found a malformed part).
    const miss = `${boundary.slice(0, -1)}${boundary.endsWith('x') ? 'y' : 'x'}`;
    const content = Buffer.from(`@r1 1:N:0:ACGT\nACGT\n+\nF:F#\n\r\n--${miss}\r\n------laneway\r\n--\r\n`.repeat(500));
    const body = multipartBody(
      multipart({ chunk: '0', filename: 'a.fastq' }, [{ field: 'file', filename: 'a.fastq', content }], boundary),
    );
    const parsed = await parse(body.contentType, body.bytes());
    expect(parsed.fields).toEqual({ chunk: '0', filename: 'a.fastq' });
    expect(parsed.file.equals(content)).toBe(true);
  });
});
