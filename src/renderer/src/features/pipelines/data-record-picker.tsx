/**
 * The control of a `file` parameter: a list of the caller's data records of the types the
 * parameter takes (references by file name: FASTA, GTF...), and an upload button that sends a
 * new file from here and selects it. Records of other types are not offered; the service
 * refuses them anyway (INVALID_PARAMETERS).
 */
import { useRef, useState } from 'react';
import type { PipelineParameter } from '../../../../shared/pipelines/parameters';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { useQuery } from '../../ui/use-query';
import { SHEET_TYPES, uploadReference, uploadSheet } from './upload-reference';
import { getData } from '../../../../shared/service-api/endpoints';

/** File extensions to offer in the file chooser, by data type. */
const ACCEPT: Record<string, string[]> = {
  fasta: ['.fa', '.fasta', '.fna', '.gz', '.bgz'],
  gtf: ['.gtf', '.gz'],
  gff3: ['.gff', '.gff3', '.gz'],
  bed: ['.bed', '.gz'],
  fastq: ['.fastq', '.fq', '.gz'],
  xlsx: ['.xlsx'],
  csv: ['.csv'],
  tsv: ['.tsv'],
  txt: ['.txt'],
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

export interface DataRecordPickerProps {
  param: PipelineParameter;
  id: string;
  value: string;
  common: Record<string, unknown>;
  onChange(value: string): void;
}

/**
 * The select's empty choice. It is short so it fits the select (a long one was cut off), the
 * file kinds are in the help below; an optional file reads "none", not as a missing one.
 */
function emptyChoice(any: boolean, required: boolean, kinds: string): string {
  if (!required) return any ? '— none —' : '— none (upload one to use it) —';
  if (!any) return '— none yet: upload one —';
  return kinds === 'any' ? '— choose a file —' : `— choose a ${kinds} file —`;
}

/** A select of the caller's records of the accepted types, with an upload button. */
export function DataRecordPicker({ param, id, value, common, onChange }: DataRecordPickerProps) {
  const { client } = useServices();
  const types = param.data_types ?? [];
  const [tick, setTick] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const records = useQuery(
    async () => {
      const lists = await Promise.all(
        (types.length ? types : [undefined]).map((t) =>
          client.call(getData, { query: { per_page: 100, ...(t ? { data_type: t } : {}) } }),
        ),
      );
      return lists.flatMap((l) => l.items).sort((a, b) => a.filename.localeCompare(b.filename) || b.id - a.id);
    },
    `records:${param.name}:${types.join(',')}:${tick}`,
  );
  const items = records.data ?? [];
  // A value typed elsewhere (a copied launch) that the list does not hold stays selectable.
  const known = value === '' || items.some((r) => String(r.id) === value);
  const accept = [...new Set(types.flatMap((t) => ACCEPT[t] ?? []))].join(',');
  const kinds = types.length ? types.map((t) => t.toUpperCase()).join(', ') : 'any';

  const upload = async (file: File) => {
    setUploadError(null);
    setProgress(0);
    try {
      // A parameter that takes sheets keeps them through the sheet route (checked there).
      const sheet = types.length > 0 && types.every((t) => SHEET_TYPES.includes(t));
      const newId = sheet ? await uploadSheet(client, file) : await uploadReference(client, file, setProgress);
      setTick((t) => t + 1);
      onChange(String(newId));
    } catch (err) {
      setUploadError(err);
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div className="record-picker" data-testid={`record-picker-${param.name}`}>
      <select {...common} id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{emptyChoice(items.length > 0, param.required === true, kinds)}</option>
        {items.map((r) => (
          <option key={r.id} value={String(r.id)}>
            {r.filename} ({r.data_type}, {size(r.size)}, #{r.id})
          </option>
        ))}
        {!known && <option value={value}>file #{value}</option>}
      </select>
      <button
        type="button"
        className="btn"
        disabled={progress !== null}
        onClick={() => fileInput.current?.click()}
        aria-label={`Upload a ${kinds} file for ${param.name}`}
      >
        {progress === null ? 'Upload…' : `Uploading ${Math.round(progress * 100)}%`}
      </button>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept={accept || undefined}
        data-testid={`record-upload-${param.name}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
        }}
      />
      <ErrorNotice
        error={records.error ?? uploadError}
        onRetry={records.error ? records.reload : undefined}
        sheetRows
        remedies={{ INVALID_ANNOTATION: 'Correct the sheet and upload it again.' }}
      />
    </div>
  );
}
