/**
 * A small streaming scanner for the XML inside workbooks: start tags with their attributes,
 * end tags and text, in document order, with namespace prefixes dropped (SpreadsheetML is
 * written with `x:` prefixes by some writers and none by others). It allocates nothing per
 * element beyond the attributes and never expands entities other than XML's five and character
 * references, so document type tricks cost nothing: a DOCTYPE is refused outright.
 */
import { TableReadError } from './table-limits';

export interface XmlHandler {
  open?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  close?(name: string): void;
  text?(text: string): void;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Replaces XML's entities and character references in text or attribute values. */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (all, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[ref] ?? all;
  });
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

const ATTR = /([^\s=/]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The `>` closing a tag that starts before `from`, skipping quoted attribute values. */
function tagEnd(xml: string, from: number): number {
  let gt = xml.indexOf('>', from);
  const quote = xml.slice(from, gt < 0 ? xml.length : gt).search(/["']/);
  if (quote < 0) return gt;
  let q = 0;
  for (let k = from + quote; k < xml.length; k++) {
    const c = xml.charCodeAt(k);
    if (q) {
      if (c === q) q = 0;
    } else if (c === 34 || c === 39) q = c;
    else if (c === 62) return k;
  }
  gt = -1;
  return gt;
}

/** Scans `xml`, calling the handler for each start tag, end tag and run of text. */
export function scanXml(xml: string, handler: XmlHandler): void {
  const n = xml.length;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i && handler.text) handler.text(decodeEntities(xml.slice(i, textEnd)));
    if (lt < 0) return;
    const next = xml.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) throw new TableReadError('A workbook part is damaged (unterminated <?)');
      i = end + 2;
    } else if (next === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) throw new TableReadError('A workbook part is damaged (unterminated comment)');
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) throw new TableReadError('A workbook part is damaged (unterminated CDATA)');
        handler.text?.(xml.slice(lt + 9, end));
        i = end + 3;
      } else {
        throw new TableReadError('A workbook part declares a document type, which workbooks never do');
      }
    } else {
      const gt = tagEnd(xml, lt + 1);
      if (gt < 0) throw new TableReadError('A workbook part is damaged (unterminated tag)');
      if (next === 47 /* / */) {
        handler.close?.(localName(xml.slice(lt + 2, gt).trim()));
      } else {
        const selfClosing = xml.charCodeAt(gt - 1) === 47;
        const body = xml.slice(lt + 1, selfClosing ? gt - 1 : gt);
        let nameEnd = 0;
        while (nameEnd < body.length && !/[\s/]/.test(body[nameEnd]!)) nameEnd++;
        const name = localName(body.slice(0, nameEnd));
        if (handler.open) {
          const attrs: Record<string, string> = {};
          if (nameEnd < body.length) {
            ATTR.lastIndex = nameEnd;
            for (let m = ATTR.exec(body); m; m = ATTR.exec(body)) {
              attrs[localName(m[1]!)] = decodeEntities(m[2] ?? m[3] ?? '');
            }
          }
          handler.open(name, attrs, selfClosing);
        }
        if (selfClosing) handler.close?.(name);
      }
      i = gt + 1;
    }
  }
}
