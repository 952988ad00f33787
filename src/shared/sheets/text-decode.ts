/**
 * Bytes of a text export to a string, as spreadsheet programs write them: UTF-8 with or
 * without a byte-order mark; UTF-16 little or big endian (Excel's "Unicode text" export, with a
 * BOM; without one it is recognised by its zero bytes); and Windows-1252, which Excel's plain
 * "CSV" save writes on Windows, recognised by not being valid UTF-8.
 */

interface Decoder {
  decode(bytes: Uint8Array): string;
}
type DecoderClass = new (label: string, options?: { fatal?: boolean }) => Decoder;
// TextDecoder is a global of both Node and the browser; shared code has neither's types.
const TextDecoderClass = (globalThis as unknown as { TextDecoder: DecoderClass }).TextDecoder;

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** The encoding of a text file's bytes, from its BOM or its content. */
export function detectEncoding(bytes: Uint8Array): { encoding: TextEncodingName; bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  // No BOM: ASCII text in UTF-16 has a zero in every other byte.
  const sample = Math.min(bytes.length, 512) & ~1;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = sample / 2;
  if (pairs >= 2 && oddZeros > pairs * 0.4 && evenZeros === 0) return { encoding: 'utf-16le', bomLength: 0 };
  if (pairs >= 2 && evenZeros > pairs * 0.4 && oddZeros === 0) return { encoding: 'utf-16be', bomLength: 0 };
  try {
    new TextDecoderClass('utf-8', { fatal: true }).decode(bytes);
    return { encoding: 'utf-8', bomLength: 0 };
  } catch {
    return { encoding: 'windows-1252', bomLength: 0 };
  }
}

/** Decodes a text file's bytes (see the module comment); the BOM is not part of the text. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const { encoding, bomLength } = detectEncoding(bytes);
  const text = new TextDecoderClass(encoding).decode(bytes.subarray(bomLength));
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, encoding };
}

/** True when bytes are not text at all: a zero byte in text that is not UTF-16. */
export function looksBinary(bytes: Uint8Array): boolean {
  const { encoding } = detectEncoding(bytes);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return false;
  return bytes.subarray(0, 65_536).includes(0);
}
