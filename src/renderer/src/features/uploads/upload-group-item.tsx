/** One sample or lane of the queue: its name (a link once created), state, note and error. */
import { memo } from 'react';
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';

/** Renders group `id`; re-renders only when that group changes (hundreds may be listed). */
export const UploadGroupItem = memo(function UploadGroupItem({ id }: { id: number }) {
  const g = useAppStore((s) => s.uploadGroups[id]);
  if (!g) return null;
  return (
    <li>
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
