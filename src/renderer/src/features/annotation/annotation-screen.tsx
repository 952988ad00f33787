/**
 * The lane annotation editor: open the service's template or a filled sheet (xlsx, csv), edit
 * it in the grid with live validation by the service's rules, check the barcodes against the
 * FASTQ's first reads, save back to xlsx, and submit the lane.
 */
import { useCallback, useMemo, useState } from 'react';
import { NAMED_COLUMNS, namedColumn, type Issue } from '../../../../shared/annotation';
import { getAnnotationLane, getCategories, getOrganisms } from '../../../../shared/service-api/endpoints';
import { annotationTable, gridOfDelimited, readDelimitedFile } from '../../../../shared/sheets';
import { useAppStore } from '../../store';
import { saveBlob } from '../../service-client/http-client';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { plural } from '../../ui/format';
import { ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { BarcodeCheckPanel } from './barcode-check-panel';
import { DEFAULT_SETTINGS, DemuxSettingsFields, parsedMismatches, type DemuxSettings } from './demux-settings';
import { IssuesPanel } from './issues-panel';
import { LaneSubmit } from './lane-submit';
import { SheetMetadataPrompt } from './sheet-metadata-prompt';
import { SheetGrid, type Cursor } from './sheet-grid';
import { useValidation } from './use-validation';
import { gridWorkbook } from './sheet-workbook';
import { firstSheetRow, readXlsx } from './xlsx-sheet';

const names = (v: ReadonlyArray<{ name: string }> | undefined) => (v ?? []).map((x) => x.name);

/** Renders the editor. */
export function AnnotationScreen() {
  const { client } = useServices();
  const headers = useAppStore((s) => s.sheetHeaders);
  const rowCount = useAppStore((s) => s.sheetRows.length);
  const fileName = useAppStore((s) => s.sheetFileName);
  // Grid row i is sheet row firstRow + i: a title above the headers moves every number.
  const firstRow = useAppStore((s) => firstSheetRow(s.sheetSource));
  const dirty = useAppStore((s) => s.sheetDirty);
  const load = useAppStore((s) => s.loadSheet);
  const addRows = useAppStore((s) => s.addRows);
  const deleteRows = useAppStore((s) => s.deleteRows);
  const addColumn = useAppStore((s) => s.addColumn);
  const markSaved = useAppStore((s) => s.markSaved);
  const [cursor, setCursor] = useState<Cursor>({ row: 0, col: 0 });
  const [error, setError] = useState<unknown>(null);
  const [fastq, setFastq] = useState<File | null>(null);
  const [read2, setRead2] = useState<File | null>(null);
  const [newColumn, setNewColumn] = useState('');
  const [serviceIssues, setServiceIssues] = useState<Issue[]>([]);
  const organisms = useQuery(() => client.call(getOrganisms), 'organisms');
  const categories = useQuery(() => client.call(getCategories), 'categories');
  const vocabulary = useMemo(
    () => ({ organisms: names(organisms.data), categories: names(categories.data) }),
    [organisms.data, categories.data],
  );
  const [demux, setDemux] = useState<DemuxSettings>(DEFAULT_SETTINGS);
  const validation = useValidation(vocabulary, {
    mismatches: parsedMismatches(demux.mismatches) ?? undefined,
    layout: demux.layout.trim() || undefined,
  });
  const segmentMismatches = validation.report?.segmentMismatches ?? [];
  const errors = validation.report?.errors ?? [];
  const warnings = validation.report?.warnings ?? [];

  const open = async (bytes: Uint8Array, name: string) => {
    setError(null);
    setServiceIssues([]);
    try {
      if (/\.(csv|tsv|txt)$/i.test(name)) {
        // The service's own table finding: a title line above the headers is passed over as it
        // passes it over, and a file with no Sample Name header is refused here as it would be there.
        const table = annotationTable(name, gridOfDelimited(readDelimitedFile(bytes).rows));
        const rows = table.rows.map((r) => table.headers.map((h) => r.values[h] ?? ''));
        load(table.headers, rows.length ? rows : [table.headers.map(() => '')], null, name);
      } else {
        const sheet = await readXlsx(bytes);
        load(sheet.headers, sheet.rows.length ? sheet.rows : [sheet.headers.map(() => '')], sheet.source, name);
      }
      setCursor({ row: 0, col: 0 });
    } catch (err) {
      setError(err);
    }
  };
  const openTemplate = async () => {
    try {
      const { blob } = await client.blob(getAnnotationLane);
      await open(new Uint8Array(await blob.arrayBuffer()), 'lane-annotation.xlsx');
    } catch (err) {
      setError(err);
    }
  };
  const newSheet = () => {
    load([...NAMED_COLUMNS], [NAMED_COLUMNS.map(() => '')], null, null);
    setCursor({ row: 0, col: 0 });
  };
  const buildWorkbook = useCallback(() => {
    const s = useAppStore.getState();
    return gridWorkbook(client, { headers: s.sheetHeaders, rows: s.sheetRows, source: s.sheetSource });
  }, [client]);
  const save = async () => {
    setError(null);
    const name = (fileName ?? 'lane-annotation').replace(/\.(csv|tsv|txt|xlsx)$/i, '') + '.xlsx';
    try {
      saveBlob(await buildWorkbook(), name);
      markSaved(name);
    } catch (err) {
      setError(err);
    }
  };
  const go = (i: Issue) => {
    const col = Math.max(
      0,
      headers.findIndex((h) => h === i.column || namedColumn(h) === i.column),
    );
    setCursor({ row: Math.max(0, i.row - firstRow), col });
    document.querySelector<HTMLElement>('[data-testid="sheet-grid"]')?.focus();
  };
  const fileInput = (label: string, accept: string, onFile: (f: File) => void, testId: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        type="file"
        accept={accept}
        data-testid={testId}
        onChange={(e) => e.target.files?.[0] && onFile(e.target.files[0])}
      />
    </label>
  );

  return (
    <section aria-labelledby="annotation-title">
      <ScreenHeader title="Lane annotation" id="annotation-title">
        <button type="button" className="btn" onClick={() => void openTemplate()}>
          Open the service's template
        </button>
        <button type="button" className="btn" onClick={newSheet}>
          New blank sheet
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={headers.length === 0}
          onClick={() => void save()}
          data-testid="save-xlsx"
        >
          Save as .xlsx
        </button>
      </ScreenHeader>
      <div className="toolbar">
        {fileInput(
          'Open a filled sheet (.xlsx, .csv)',
          '.xlsx,.csv,.tsv,.txt',
          (f) => void f.arrayBuffer().then((b) => open(new Uint8Array(b), f.name)),
          'open-sheet',
        )}
        {fileInput('Multiplexed FASTQ (read 1)', '.fastq,.fq,.gz', setFastq, 'open-fastq')}
        {fileInput('Read 2 (optional)', '.fastq,.fq,.gz', setRead2, 'open-read2')}
      </div>
      <ErrorNotice error={error} />
      {headers.length === 0 ? (
        <p className="muted">Open the template or a sheet, or start a blank one.</p>
      ) : (
        <>
          <p className="muted" data-testid="sheet-meta">
            {fileName ?? 'New sheet'}
            {dirty ? ' (unsaved changes)' : ''} · {plural(rowCount, 'row')} · arrows move, Enter or typing edits, Ctrl+V
            pastes from Excel
          </p>
          <div className="toolbar">
            <button type="button" className="btn" onClick={() => addRows(cursor.row + 1, 1)}>
              Add row below
            </button>
            <button
              type="button"
              className="btn"
              disabled={rowCount === 0}
              onClick={() => {
                deleteRows([cursor.row]);
                setCursor({ row: Math.max(0, Math.min(cursor.row, rowCount - 2)), col: cursor.col });
              }}
            >
              Delete row {cursor.row + firstRow}
            </button>
            <form
              className="inline-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (newColumn.trim() && !headers.includes(newColumn.trim())) addColumn(newColumn.trim());
                setNewColumn('');
              }}
            >
              <label className="field">
                <span>New metadata column</span>
                <input value={newColumn} onChange={(e) => setNewColumn(e.target.value)} />
              </label>
              <button type="submit" className="btn">
                Add column
              </button>
            </form>
          </div>
          <SheetGrid
            issues={validation.cells}
            cursor={cursor}
            onCursor={setCursor}
            firstRow={firstRow}
            selectedRows={new Set([cursor.row])}
          />
          <SheetMetadataPrompt vocabulary={vocabulary} />
          <IssuesPanel
            errors={errors}
            warnings={warnings}
            serviceIssues={serviceIssues}
            pending={validation.pending}
            onGo={go}
          />
          <DemuxSettingsFields settings={demux} onChange={setDemux} report={validation.report} paired={!!read2} />
          <BarcodeCheckPanel
            files={fastq ? { fastq, read2, index1: demux.index1, index2: demux.index2 } : null}
            design={validation.report?.design ?? null}
            mismatches={segmentMismatches}
            barcodeRead={demux.barcodeRead}
            pending={validation.pending}
          />
          <LaneSubmit
            fastq={fastq}
            read2={read2}
            settings={demux}
            design={validation.report?.design ?? null}
            mismatches={segmentMismatches}
            hasErrors={errors.length > 0}
            buildWorkbook={buildWorkbook}
            onServiceIssues={setServiceIssues}
          />
        </>
      )}
    </section>
  );
}
