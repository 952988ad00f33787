/** GET /api/annotation/sample and /api/annotation/lane: the annotation templates as xlsx. */
import { Type } from 'typebox';

/** The bytes of an xlsx workbook (not JSON: its type here stays open). */
export const WorkbookBytes = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });
