/** Data records: GET/DELETE /api/data/{id}, GET /api/data/, GET /api/data/{id}/download. */
import { Type, type Static } from 'typebox';
import { PageQueryProperties, Page } from './page';
import { AccessProperties, FilePart, NullableInteger, NullableString, StringEnum } from './resource';

/** Where a data record came from. */
export const DataSource = StringEnum(['upload', 'execution', 'lane', 'report']);
export type DataSource = Static<typeof DataSource>;

/** One data record as the caller sees it. */
export const DataRecord = Type.Object({
  id: Type.Integer(),
  filename: Type.String(),
  size: Type.Integer(),
  data_type: Type.String(),
  checksum: Type.String(),
  created: Type.String(),
  source: Type.Optional(Type.String()),
  path: Type.Optional(NullableString),
  execution_id: Type.Optional(NullableInteger),
  sample_id: Type.Optional(NullableInteger),
  ...AccessProperties,
});
export type DataRecord = Static<typeof DataRecord>;

/** GET /api/data/ filters. */
export const DataListQuery = Type.Object(
  {
    ...PageQueryProperties,
    data_type: Type.Optional(Type.String()),
    source: Type.Optional(DataSource),
    unassigned: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type DataListQuery = Static<typeof DataListQuery>;

export const DataPage = Page(DataRecord);
export type DataPage = Static<typeof DataPage>;

/** The bytes of a download (whole or a range): not JSON, so its type here stays open (a stream). */
export const BinaryBody = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });

/** A short-lived address of an HTML report, shown sandboxed (POST /api/data/{id}/view). */
export const ViewTicket = Type.Object({
  url: Type.String({ description: 'path of the report on this service, to show in a frame' }),
  expires: Type.String(),
});
export const ViewTicketParams = Type.Object({ ticket: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) });

/** POST /api/data/sheets: one annotation sheet (xlsx, csv, tsv or txt) to keep as a data record. */
export const SheetRecordForm = Type.Object({ annotation: FilePart });
