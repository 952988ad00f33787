/**
 * The samples and lanes of the queue. A few are listed one by one; beyond that, a line of counts
 * by state, the latest ones and every failed one (their reasons matter), and the rest behind
 * "Show all": a plate's hundreds of lines above the table pushed the files out of sight, and
 * laying them out was half the screen's work while the plate uploaded (issue 21). Shown all, the
 * list keeps only the lines near the view in the page, as the table of files does.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../store';
import { plural } from '../../ui/format';
import { useRowWindow } from '../../ui/use-row-window';
import { UploadGroupItem } from './upload-group-item';

/** Up to this many samples and lanes are listed whole; beyond, this many latest ones. */
const LIST_WHOLE = 20;
const STATES = ['uploading', 'creating', 'created', 'failed', 'cancelled'] as const;
/** A line's height before it is measured: one line of text and its padding. */
const LINE_ESTIMATE = 27;

export function UploadGroups() {
  const ids = useAppStore(useShallow((s) => Object.keys(s.uploadGroups).map(Number)));
  const failed = useAppStore(
    useShallow((s) =>
      Object.values(s.uploadGroups)
        .filter((g) => g.state === 'failed')
        .map((g) => g.id),
    ),
  );
  const counts = useAppStore(
    useShallow((s) => {
      const c: Record<string, number> = {};
      for (const g of Object.values(s.uploadGroups)) c[g.state] = (c[g.state] ?? 0) + 1;
      return c;
    }),
  );
  const kinds = useAppStore(useShallow((s) => [...new Set(Object.values(s.uploadGroups).map((g) => g.kind))].sort()));
  const [whole, setWhole] = useState(false);
  const long = ids.length > LIST_WHOLE;
  const shown = useMemo(
    () => (!long || whole ? ids : [...new Set([...failed, ...ids.slice(-LIST_WHOLE)])].sort((a, b) => a - b)),
    [ids, failed, long, whole],
  );
  const { window: w, headRef, rowRef } = useRowWindow(shown, LINE_ESTIMATE);
  if (ids.length === 0) return null;
  return (
    <>
      {long && (
        <p className="inline-form" ref={headRef}>
          <span data-testid="upload-groups-summary">
            {kinds.length === 1
              ? plural(ids.length, kinds[0]!, `${kinds[0]!}s`)
              : plural(ids.length, 'sample or lane', 'samples and lanes')}
            :{' '}
            {STATES.filter((st) => counts[st])
              .map((st) => `${(counts[st] ?? 0).toLocaleString('en')} ${st}`)
              .join(', ')}
          </span>
          <button type="button" className="btn btn-small" aria-expanded={whole} onClick={() => setWhole(!whole)}>
            {whole ? `Show the latest ${LIST_WHOLE}` : `Show all ${ids.length.toLocaleString('en')}`}
          </button>
        </p>
      )}
      {shown.length > 0 && (
        <ul className="plain-list" data-testid="upload-groups" data-lines={shown.length}>
          {w.padTop > 0 && <li aria-hidden="true" className="row-spacer" style={{ height: w.padTop }} />}
          {shown.slice(w.start, w.end).map((id, i) => (
            <UploadGroupItem key={id} id={id} index={w.start + i} of={shown.length} rowRef={rowRef(id)} />
          ))}
          {w.padBottom > 0 && <li aria-hidden="true" className="row-spacer" style={{ height: w.padBottom }} />}
        </ul>
      )}
    </>
  );
}
