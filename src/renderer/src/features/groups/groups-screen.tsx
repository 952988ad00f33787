/** Groups: the caller's groups, open invitations to answer, and a form to create a group. */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { plural } from '../../ui/format';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { GroupDetail } from './group-detail';
import {
  getGroups,
  getMe,
  postGroups,
  postGroupsBySlugAccept,
  postGroupsBySlugDecline,
} from '../../../../shared/service-api/endpoints';

/** Renders the groups screen. */
export function GroupsScreen() {
  const { client, api } = useServices();
  const setAuth = useAppStore((s) => s.setAuth);
  const pushToast = useAppStore((s) => s.pushToast);
  const list = useQuery(() => client.call(getGroups, { query: { per_page: 100 } }), 'groups');
  const me = useQuery(() => client.call(getMe), 'me-groups');
  // The open group is part of the address (#/groups/<slug>).
  const params = useAppStore((s) => s.params);
  const navigate = useAppStore((s) => s.navigate);
  const open = params.id !== undefined ? String(params.id) : null;
  const setOpen = (slug: string | null) => navigate('groups', slug === null ? {} : { id: slug });
  const [form, setForm] = useState({ name: '', description: '' });
  const [error, setError] = useState<unknown>(null);

  const refresh = () => {
    list.reload();
    me.reload();
    // The header and the project owner choices read the groups from the core's auth status.
    void api.auth.status().then(setAuth, () => {});
  };
  // The toast names the group as people know it (its name), not by its slug.
  const answer = async (slug: string, name: string, verb: 'accept' | 'decline') => {
    setError(null);
    try {
      await client.call(verb === 'accept' ? postGroupsBySlugAccept : postGroupsBySlugDecline, { params: { slug } });
      pushToast({ tone: 'ok', message: verb === 'accept' ? `You joined ${name}` : `Invitation to ${name} declined` });
      refresh();
    } catch (err) {
      setError(err);
    }
  };
  const create = async () => {
    setError(null);
    try {
      const g = await client.call(postGroups, { body: form });
      setForm({ name: '', description: '' });
      refresh();
      setOpen(g.slug);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section aria-labelledby="groups-title">
      <ScreenHeader title="Groups" id="groups-title" />
      <ErrorNotice error={error} />
      {(me.data?.invitations ?? []).length > 0 && (
        <div className="card" data-testid="invitations">
          <h3>Invitations</h3>
          <ul className="plain-list">
            {me.data!.invitations.map((inv) => (
              <li key={inv.group}>
                <span>
                  {inv.group_name ?? inv.group} ({inv.permission})
                  {inv.invited_by ? `, invited by ${inv.invited_by}` : ''}
                </span>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void answer(inv.group, inv.group_name ?? inv.group, 'accept')}
                >
                  Accept {inv.group_name ?? inv.group}
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void answer(inv.group, inv.group_name ?? inv.group, 'decline')}
                >
                  Decline {inv.group_name ?? inv.group}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      <form
        className="card inline-form"
        aria-label="Create a group"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label className="field">
          <span>New group name</span>
          <input required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="field">
          <span>Description</span>
          <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        </label>
        <button type="submit" className="btn btn-primary">
          Create group
        </button>
      </form>
      {list.loading && !list.data && <Loading what="groups" />}
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {list.data && (
        <ul className="plain-list" data-testid="groups-list">
          {list.data.items.map((g) => (
            <li key={g.slug}>
              <button
                type="button"
                className="link-button"
                aria-current={g.slug === open ? 'true' : undefined}
                onClick={() => setOpen(g.slug)}
              >
                {g.name}
              </button>
              <span className="muted">
                {g.role} · {g.member_count === undefined ? 'members not counted' : plural(g.member_count, 'member')}
              </span>
            </li>
          ))}
          {list.data.items.length === 0 && <li className="muted">You are in no group yet.</li>}
        </ul>
      )}
      {open && (
        <GroupDetail
          key={open}
          slug={open}
          onGone={() => {
            setOpen(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}
