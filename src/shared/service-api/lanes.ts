/** Lanes: POST /api/upload/multiplexed (multipart), GET /api/lanes/ and /api/lanes/{id}. */
import { Type, type Static } from 'typebox';
import { PageQueryProperties, Page } from './page';
import { FilePart, NullableInteger, NullableString, StringEnum } from './resource';

/**
 * The text fields of the multipart form of POST /api/upload/multiplexed, beside its file parts
 * (annotation; file, file2, index1, index2). A read comes either as a file part or as the id of
 * a data record uploaded in chunks (`*_data_id`). The service parses them itself (lane-form.ts).
 */
const laneFields = {
  name: Type.String(),
  file_data_id: Type.Optional(Type.String()),
  file2_data_id: Type.Optional(Type.String()),
  index1_data_id: Type.Optional(Type.String()),
  index2_data_id: Type.Optional(Type.String()),
  mismatches: Type.Optional(Type.String({ description: '0 to 2, or per index or end like 1,0' })),
  layout: Type.Optional(Type.String()),
  barcode_source: Type.Optional(Type.String({ description: 'auto, inline, header or index-reads' })),
  barcode_read: Type.Optional(Type.String({ description: '1 or 2' })),
  adapter: Type.Optional(
    Type.String({ description: "the 3' adapter a 3' barcode sits before (default: a known one found in the reads)" }),
  ),
  ignore_warnings: Type.Optional(Type.String({ description: 'true to go ahead despite warnings' })),
};
export const LaneUploadFields = Type.Object(laneFields);
export type LaneUploadFields = Static<typeof LaneUploadFields>;

/** The whole multipart form of POST /api/upload/multiplexed, as the OpenAPI document shows it. */
export const LaneUploadForm = Type.Object({
  ...laneFields,
  annotation: FilePart,
  file: Type.Optional(FilePart),
  file2: Type.Optional(FilePart),
  index1: Type.Optional(FilePart),
  index2: Type.Optional(FilePart),
});

export const LaneStatus = StringEnum(['demultiplexing', 'complete', 'failed']);
export type LaneStatus = Static<typeof LaneStatus>;

/** A problem in an annotation sheet, by row and column. */
export const SheetIssue = Type.Object({
  row: Type.Optional(Type.Integer()),
  column: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});
export type SheetIssue = Static<typeof SheetIssue>;

/** One row of the annotation as the lane shows it, with the sample it became. */
export const LaneSample = Type.Object({
  name: Type.String(),
  barcode: Type.String(),
  sample_id: NullableInteger,
  reads: NullableInteger,
});
export type LaneSample = Static<typeof LaneSample>;

export const UnknownBarcode = Type.Object({
  barcode: Type.Optional(Type.String()),
  count: Type.Optional(Type.Integer()),
  nearest: Type.Optional(NullableString),
  distance: Type.Optional(NullableInteger),
});
export type UnknownBarcode = Static<typeof UnknownBarcode>;

/** A lane: status, progress, per-sample read counts, top unknown barcodes, the report. */
export const Lane = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: LaneStatus,
  progress: Type.Number(),
  error: Type.Optional(NullableString),
  read1: Type.Optional(Type.Integer()),
  read2: Type.Optional(NullableInteger),
  paired: Type.Optional(Type.Boolean()),
  mismatches: Type.Optional(Type.Integer()),
  layout: Type.Optional(NullableString),
  barcode_source: Type.Optional(Type.String()),
  samples: Type.Array(LaneSample),
  warnings: Type.Array(SheetIssue),
  total_reads: Type.Optional(NullableInteger),
  undetermined_reads: Type.Optional(NullableInteger),
  undetermined_data: Type.Optional(Type.Array(Type.Integer())),
  unknown_barcodes: Type.Optional(Type.Array(UnknownBarcode)),
  index1: Type.Optional(NullableInteger),
  index2: Type.Optional(NullableInteger),
  barcode_read: Type.Optional(Type.Integer()),
  segment_mismatches: Type.Optional(Type.Array(Type.Integer())),
  report: Type.Optional(
    Type.Unsafe<Record<string, unknown> | null>({
      type: ['object', 'null'],
      description:
        "The demultiplexing report: reads per sample (with one and two mismatches), undetermined fraction, mismatches per segment and the most the barcodes allow, top unknown barcodes with their nearest sample, index hopping for dual indexes (unexpected pairs for 5'+3'), the likely cause when most reads are undetermined, and where the barcodes were found in the first reads (`detection`: chosen placement, runner-up, every candidate's share)",
      additionalProperties: true,
    }),
  ),
  owner: Type.Optional(NullableString),
  created: Type.Optional(Type.String()),
  started: Type.Optional(NullableString),
  finished: Type.Optional(NullableString),
});
export type Lane = Static<typeof Lane>;

/** GET /api/lanes/ filters. */
export const LaneListQuery = Type.Object(
  { ...PageQueryProperties, status: Type.Optional(LaneStatus) },
  { additionalProperties: false },
);
export type LaneListQuery = Static<typeof LaneListQuery>;

export const LanePage = Page(Lane);
export type LanePage = Static<typeof LanePage>;
