/**
 * Sharing of one resource (project, sample, data, execution) with groups: who has it at which
 * permission, share with another group, stop sharing. The service decides who may share.
 */
import { useState } from 'react';
import { useServices } from '../service-client/services-context';
import type { GroupSummary, Page, ResourcePermissions } from '../service-client/types';
import { ErrorNotice } from './error-notice';
import { useQuery } from './use-query';

type Segment = 'projects' | 'samples' | 'data' | 'executions';

/** The panel; `canShare` comes from the resource's `can_share`. */
export function SharePanel({ segment, id, canShare }: { segment: Segment; id: number; canShare: boolean }) {
  const { client } = useServices();
  const perms = useQuery(
    () => client.get<ResourcePermissions>(`/api/${segment}/${id}/permissions/`),
    `${segment}:${id}`,
  );
  const groups = useQuery(
    () => client.get<Page<GroupSummary> | GroupSummary[]>('/api/groups/').then((g) => (Array.isArray(g) ? g : g.items)),
    'groups',
  );
  // Groups are named as everywhere else (by name), the slug only where the service needs it.
  const nameOf = (slug: string) => (groups.data ?? []).find((x) => x.slug === slug)?.name ?? slug;
  const [group, setGroup] = useState('');
  const [permission, setPermission] = useState('view');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      perms.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby={`share-${segment}-${id}`} data-testid="share-panel">
      <h3 id={`share-${segment}-${id}`}>Sharing</h3>
      <ErrorNotice error={perms.error} onRetry={perms.reload} />
      {perms.data && (
        <>
          <p className="muted">
            Owned by{' '}
            {perms.data.group_owner ? `the group ${nameOf(perms.data.group_owner)}` : (perms.data.owner ?? 'you')}
          </p>
          <ul className="plain-list">
            {(perms.data.shares ?? []).map((s) => (
              <li key={s.group}>
                <span>
                  {nameOf(s.group)}: {s.permission}
                </span>
                {canShare && (
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={busy}
                    onClick={() => void act(() => client.del(`/api/${segment}/${id}/share/${s.group}/`))}
                  >
                    Stop sharing with {nameOf(s.group)}
                  </button>
                )}
              </li>
            ))}
            {(perms.data.shares ?? []).length === 0 && <li className="muted">Not shared with any group.</li>}
          </ul>
        </>
      )}
      {canShare ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void act(() => client.post(`/api/${segment}/${id}/share/`, { group, permission }));
          }}
        >
          <label className="field">
            <span>Group</span>
            <select required value={group} onChange={(e) => setGroup(e.target.value)}>
              <option value="">Choose a group</option>
              {(groups.data ?? []).map((g) => (
                <option key={g.slug} value={g.slug}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Permission</span>
            <select value={permission} onChange={(e) => setPermission(e.target.value)}>
              <option value="view">view (read only)</option>
              <option value="edit">edit (view and change)</option>
              <option value="share">share (edit and share further)</option>
            </select>
          </label>
          <button type="submit" className="btn" disabled={busy || !group}>
            Share
          </button>
        </form>
      ) : (
        <p className="muted">You cannot share this: ask its owner or an admin of its group.</p>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}
