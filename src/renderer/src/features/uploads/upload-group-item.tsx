/** One sample or lane of the queue: its name (a link once created), state, note and error. */
import { memo } from 'react';
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';

/**
 * Renders group `id`, the `index`th of `of` lines; re-renders only when that group or its place
 * changes (hundreds may be listed). `rowRef` lets the list measure the line (use-row-window.ts);
 * the list's lines outside the view are not in the page, so each line gives its place.
 */
export const UploadGroupItem = memo(function UploadGroupItem({
  id,
  index,
  of,
  rowRef,
}: {
  id: number;
  index: number;
  of: number;
  rowRef: (el: HTMLLIElement | null) => void;
}) {
  const g = useAppStore((s) => s.uploadGroups[id]);
  if (!g) return null;
  return (
    <li ref={rowRef} aria-posinset={index + 1} aria-setsize={of}>
      <span>
        {g.kind === 'lane' ? 'Lane' : 'Sample'}{' '}
        {g.kind === 'sample' && g.created_id !== null ? (
          <a href={formatHash('samples', { id: g.created_id })}>
            <strong>{g.name}</strong>
          </a>
        ) : (
          <strong>{g.name}</strong>
        )}
        : {g.note?.startsWith('Linked') ? 'linked to an existing sample' : g.state}
      </span>
      {g.note && <span className="muted">{g.note}</span>}
      {g.error && <span className="field-message">{g.error}</span>}
    </li>
  );
});
