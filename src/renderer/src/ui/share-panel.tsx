/**
 * Sharing of one resource (project, sample, data, execution) with groups: who has it at which
 * permission, share with another group, stop sharing. The service decides who may share.
 */
import { useState } from 'react';
import { getGroups, sharing, type SharingSegment } from '../../../shared/service-api/endpoints';
import type { Permission } from '../../../shared/service-api/groups';
import type { ShareIncluded } from '../../../shared/service-api/shares';
import { NotOffered, useServiceOffers } from './service-offers';
import { useServices } from '../service-client/services-context';
import { ErrorNotice } from './error-notice';
import { useQuery } from './use-query';

type Segment = SharingSegment;
const PERMISSIONS = ['view', 'edit', 'share'] as const satisfies readonly Permission[];

/** What "with its reads and results" takes along, per kind, in the words the dialog shows. */
const WITH_DATA: Partial<Record<Segment, { on: string; off: string }>> = {
  projects: {
    on: 'Your colleagues will see the project, its samples with their reads, and the executions run on those samples with their results (read only). Samples, reads or results you may not share stay private.',
    off: 'Your colleagues will see the project and its sample names only: no reads, no executions, no results.',
  },
  samples: {
    on: 'Your colleagues will see the sample, read its read files, and see the executions run on it with their results (read only).',
    off: 'Your colleagues will see the sample and its metadata only: its read files stay private.',
  },
  executions: {
    on: 'Your colleagues will see the execution, its samples with their reads, and read its results (read only).',
    off: 'Your colleagues will see the execution, its parameters and logs only: its results stay private.',
  },
};

/** The outcome of a share in one sentence. */
function describeIncluded(group: string, i: ShareIncluded): string {
  if (!i.with_data) return `Shared with ${group}; reads and results stay private.`;
  const parts = [
    i.samples ? `${i.samples} sample${i.samples === 1 ? '' : 's'}` : '',
    i.data ? `${i.data} file${i.data === 1 ? '' : 's'} (reads and results)` : '',
    i.executions ? `${i.executions} execution${i.executions === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const what = parts.length ? `, with ${parts.join(', ')}` : '';
  const skipped = i.skipped ? `; ${i.skipped} item${i.skipped === 1 ? '' : 's'} you may not share stay private` : '';
  return `Shared with ${group}${what}${skipped}.`;
}

/** The panel; `canShare` comes from the resource's `can_share`. */
function SharePanelBody({ segment, id, canShare }: { segment: Segment; id: number; canShare: boolean }) {
  const { client } = useServices();
  const perms = useQuery(() => client.call(sharing[segment].permissions, { params: { id } }), `${segment}:${id}`);
  const groups = useQuery(() => client.call(getGroups, { query: { per_page: 100 } }).then((g) => g.items), 'groups');
  // Groups are named as everywhere else (by name), the slug only where the service needs it.
  const nameOf = (slug: string) => (groups.data ?? []).find((x) => x.slug === slug)?.name ?? slug;
  const [group, setGroup] = useState('');
  const [permission, setPermission] = useState<Permission>('view');
  // On by default in the dialog (the API's default stays off: the derived-data rule).
  const [withData, setWithData] = useState(true);
  const [outcome, setOutcome] = useState<string | null>(null);
  const explain = WITH_DATA[segment];
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
                    onClick={() =>
                      void act(() => client.call(sharing[segment].unshare, { params: { id, slug: s.group } }))
                    }
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
            setOutcome(null);
            void act(async () => {
              const answer = await client.call(sharing[segment].share, {
                params: { id },
                body: { group, permission, ...(explain ? { with_data: withData } : {}) },
              });
              if (answer?.included) setOutcome(describeIncluded(nameOf(group), answer.included));
            });
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
            <select
              value={permission}
              onChange={(e) => setPermission(PERMISSIONS.find((p) => p === e.target.value) ?? 'view')}
            >
              <option value="view">view (read only)</option>
              <option value="edit">edit (view and change)</option>
              <option value="share">share (edit and share further)</option>
            </select>
          </label>
          {explain && (
            <div className="share-with-data">
              <label className="check">
                <input
                  type="checkbox"
                  checked={withData}
                  onChange={(e) => setWithData(e.target.checked)}
                  data-testid="share-with-data"
                  aria-describedby={`share-what-${segment}-${id}`}
                />{' '}
                With its reads and results
              </label>
              <p className="field-help" id={`share-what-${segment}-${id}`} data-testid="share-what">
                {withData ? explain.on : explain.off}
              </p>
            </div>
          )}
          <button type="submit" className="btn" disabled={busy || !group}>
            Share
          </button>
        </form>
      ) : (
        <p className="muted">You cannot share this: ask its owner or an admin of its group.</p>
      )}
      {outcome && (
        <p className="notice" role="status" data-testid="share-outcome">
          {outcome}
        </p>
      )}
      <ErrorNotice error={error} />
    </section>
  );
}

/** The panel; `canShare` comes from the resource's `can_share`; a service without sharing says so. */
export function SharePanel(props: { segment: Segment; id: number; canShare: boolean }) {
  const offers = useServiceOffers();
  if (offers.sharing) return <SharePanelBody {...props} />;
  return (
    <section className="card" aria-label="Sharing">
      <h3>Sharing</h3>
      <NotOffered what="Sharing" />
    </section>
  );
}
