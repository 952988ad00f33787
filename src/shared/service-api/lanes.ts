/** Lanes: POST /api/upload/multiplexed (multipart), GET /api/lanes/ and /api/lanes/{id}. */
import { Type, type Static } from 'typebox';
import { SheetIssue } from './error-body';
import { PageQueryProperties, Page } from './page';
import { FilePart, Nullable, NullableInteger, NullableString, StringEnum } from './resource';

/**
 * The text fields of the multipart form of POST /api/upload/multiplexed, beside its file parts
 * (annotation; file, file2, index1, index2). A read comes either as a file part or as the id of
 * a data record uploaded in chunks (`*_data_id`). The service parses them itself (lane-form.ts).
 */
const dataId = (part: string) =>
  Type.Optional(
    Type.String({
      pattern: '^\\s*[0-9]{1,15}\\s*$',
      description: `must be a data id (a FASTQ uploaded in chunks, instead of ${part})`,
    }),
  );
/** Each field's description is also the rule a refusal names (VALIDATION_ERROR's `fields`). */
const laneFields = {
  name: Type.String({ minLength: 1, maxLength: 200, description: 'required, at most 200 characters' }),
  file_data_id: dataId('file'),
  file2_data_id: dataId('file2'),
  index1_data_id: dataId('index1'),
  index2_data_id: dataId('index2'),
  mismatches: Type.Optional(
    Type.String({
      pattern: '^\\s*([0-9]+(\\s*,\\s*[0-9]+)*)?\\s*$',
      description: '0 to 2, or one count per index or end like 1,0',
    }),
  ),
  layout: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "N for UMI bases around X for barcode bases: NNNXXXXXXNN (5'), ...XXXXXXNNNN (3') or both",
    }),
  ),
  barcode_source: Type.Optional(
    StringEnum(['', 'auto', 'inline', 'header', 'index-reads'], { description: 'auto, inline, header or index-reads' }),
  ),
  barcode_read: Type.Optional(StringEnum(['', '1', '2'], { description: '1 or 2' })),
  adapter: Type.Optional(
    Type.String({
      pattern: '^\\s*([ACGTacgt]{3,100})?\\s*$',
      description:
        "the 3' adapter a 3' barcode sits before, 3 to 100 bases of A, C, G and T (default: a known one found in the reads)",
    }),
  ),
  ignore_warnings: Type.Optional(
    Type.String({
      pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0|)$',
      description: 'true or false: true to go ahead despite warnings',
    }),
  ),
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

/** One sample's reads in the report: in all, and those assigned with one and with two mismatches. */
export const LaneReportSample = Type.Object({
  name: Type.String(),
  barcode: Type.String(),
  reads: Type.Integer(),
  one_mismatch: Type.Integer(),
  two_mismatches: Type.Integer(),
});

/** A frequent barcode that matched no sample, with the nearest sample's barcode. */
export const ReportUnknownBarcode = Type.Object({
  barcode: Type.String(),
  count: Type.Integer(),
  nearest: NullableString,
  distance: NullableInteger,
});
export type ReportUnknownBarcode = Static<typeof ReportUnknownBarcode>;

/** Reads whose segments each matched a barcode of the sheet in a pair that is no sample. */
export const LaneHopping = Type.Object({
  reads: Type.Integer(),
  fraction: Type.Number(),
  top: Type.Array(Type.Object({ barcode: Type.String(), count: Type.Integer(), samples: Type.Array(Type.String()) })),
});

/** Why most reads are undetermined, when one usual cause explains them. */
export const LaneDiagnosis = Type.Object({
  cause: StringEnum(['i5-reverse-complement', 'i7-reverse-complement', 'layout', 'barcode-read']),
  fraction: Type.Number({ description: 'Share of the undetermined reads that the fix would assign' }),
  message: Type.String(),
  layout: Type.Optional(Type.String({ description: 'For a wrong layout: the layout that fits the reads' })),
});

/** One candidate placement of the barcodes, scored on the first reads. */
export const PlacementScore = Type.Object({
  id: Type.String(),
  description: Type.String(),
  assigned: Type.Integer(),
  readable: Type.Integer(),
  fraction: Type.Number(),
});

/** Where the barcodes were found in the first reads. */
export const PlacementDetection = Type.Object({
  sampled_reads: Type.Integer(),
  given: Type.Boolean({ description: 'The lane named where its barcodes are' }),
  chosen: PlacementScore,
  runner_up: Nullable(PlacementScore),
  candidates: Type.Array(PlacementScore),
  adapter: NullableString,
  refusal: NullableString,
});

/**
 * The demultiplexing report: reads per sample (with one and two mismatches), undetermined
 * fraction, mismatches per segment and the most the barcodes allow, top unknown barcodes with
 * their nearest sample, index hopping for dual indexes (unexpected pairs for 5'+3'), the likely
 * cause when most reads are undetermined, and where the barcodes were found in the first reads.
 */
export const LaneReport = Type.Object({
  source: StringEnum(['inline', 'header', 'index-reads']),
  segments: Type.Array(Type.String(), { description: "5', 3' (inline) or i7, i5 (indexes)" }),
  layout: NullableString,
  segment_mismatches: Type.Array(Type.Integer()),
  max_mismatches: Type.Array(Type.Integer()),
  barcode_read: Nullable(Type.Integer()),
  total_reads: Type.Integer(),
  undetermined_reads: Type.Integer(),
  undetermined_fraction: Type.Number(),
  samples: Type.Array(LaneReportSample),
  top_unknown: Type.Array(ReportUnknownBarcode),
  hopping: Nullable(LaneHopping),
  diagnosis: Nullable(LaneDiagnosis),
  adapter: NullableString,
  detection: Nullable(PlacementDetection),
});
export type LaneReport = Static<typeof LaneReport>;

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
  report: Type.Optional(Nullable(LaneReport)),
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
