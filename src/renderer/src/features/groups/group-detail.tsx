/**
 * One group: members with role and permission, and the admin's actions (invite by e-mail,
 * promote, demote, remove), leave for everyone. The service enforces the last-admin rule; its
 * refusal is shown with what to do instead.
 */
import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { useRevealOnLoad } from '../../ui/use-reveal';
import type { Permission } from '../../../../shared/service-api/groups';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { fieldErrorsOf, FieldMessage } from '../../ui/field-errors';
import { Loading } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import {
  deleteGroupsBySlug,
  getGroupsBySlug,
  postGroupsBySlugDemote,
  postGroupsBySlugInvite,
  postGroupsBySlugLeave,
  postGroupsBySlugPromote,
  postGroupsBySlugRemove,
} from '../../../../shared/service-api/endpoints';

const PERMISSIONS = ['view', 'edit', 'share'] as const satisfies readonly Permission[];

const MEMBER_ACTIONS = {
  promote: postGroupsBySlugPromote,
  demote: postGroupsBySlugDemote,
  remove: postGroupsBySlugRemove,
} as const;

/** Shows the group with the given slug. */
export function GroupDetail({ slug, onGone }: { slug: string; onGone(): void }) {
  const { client } = useServices();
  const me = useAppStore((s) => s.auth?.user?.username);
  const pushToast = useAppStore((s) => s.pushToast);
  const q = useQuery(() => client.call(getGroupsBySlug, { params: { slug } }), `group:${slug}`);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [emails, setEmails] = useState('');
  const [permission, setPermission] = useState<Permission>('view');
  const [confirm, setConfirm] = useState<'leave' | 'delete' | null>(null);
  const admin = q.data?.role === 'admin';
  const title = useRevealOnLoad(q.data !== undefined);
  // The service names the refused address by its position (emails.1): say which one it was.
  const inviteErrors = fieldErrorsOf(error);
  const typed = emails
    .split(/[\s,;]+/)
    .map((x) => x.trim())
    .filter(Boolean);
  const inviteReason =
    Object.entries(inviteErrors)
      .filter(([k]) => k === 'emails' || k.startsWith('emails.'))
      .map(([k, v]) => {
        const at = Number(k.split('.')[1]);
        return Number.isInteger(at) && typed[at] ? `${typed[at]} ${v}` : v;
      })
      .join('; ') || null;
  const inviteInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (inviteReason) inviteInput.current?.focus();
  }, [inviteReason]);
  const admins = (q.data?.members ?? []).filter((m) => m.role === 'admin').length;
  // The service refuses the last admin's leaving (LAST_ADMIN): the button is not offered then.
  const soleAdmin = admin && admins <= 1;

  /** Runs an action; true when it succeeded (a refused invite keeps what was typed). */
  const act = async (fn: () => Promise<unknown>, done: string, gone = false): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      pushToast({ tone: 'ok', message: done });
      if (gone) onGone();
      else q.reload();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };
  const member = (action: 'promote' | 'demote' | 'remove', username: string) =>
    act(() => client.call(MEMBER_ACTIONS[action], { params: { slug }, body: { username } }), `${username}: ${action}d`);

  return (
    <section className="card" aria-labelledby="group-detail-title" data-testid="group-detail">
      {q.loading && !q.data && <Loading what="the group" />}
      <ErrorNotice error={q.error} onRetry={q.reload} />
      {q.data && (
        <>
          <div className="screen-header">
            <h3 id="group-detail-title" ref={title} tabIndex={-1}>
              {q.data.name}
            </h3>
            <div className="screen-actions">
              <button
                type="button"
                className="btn"
                disabled={busy || soleAdmin}
                aria-describedby={soleAdmin ? 'leave-reason' : undefined}
                onClick={() => setConfirm('leave')}
              >
                Leave group
              </button>
              {admin && (
                <button type="button" className="btn btn-danger" disabled={busy} onClick={() => setConfirm('delete')}>
                  Delete group
                </button>
              )}
            </div>
          </div>
          {soleAdmin && (
            <p className="muted" id="leave-reason" data-testid="leave-reason">
              You are its only admin, so you cannot leave: promote another member to admin first, or delete the group.
            </p>
          )}
          {q.data.description && <p>{q.data.description}</p>}
          <p className="muted">
            Your role: {q.data.role} · your permission: {q.data.permission}
          </p>
          <ErrorNotice error={error} />
          <table className="grid" data-testid="members">
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Permission</th>
                {admin && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {(q.data.members ?? []).map((m) => (
                <tr key={m.username} data-testid={`member-${m.username}`}>
                  <td>
                    {m.name || m.username} <span className="muted">({m.username})</span>
                  </td>
                  <td>{m.role}</td>
                  <td>{m.permission}</td>
                  {admin && (
                    <td>
                      {m.role === 'member' && (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => void member('promote', m.username)}
                        >
                          Promote {m.username} to admin
                        </button>
                      )}
                      {m.role === 'admin' && admins > 1 && (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => void member('demote', m.username)}
                        >
                          Demote {m.username}
                        </button>
                      )}
                      {m.username !== me && (
                        <button
                          type="button"
                          className="btn btn-small"
                          onClick={() => void member('remove', m.username)}
                        >
                          Remove {m.username}
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {admin && (
            <>
              {(q.data.pending_invitations ?? []).length > 0 && (
                <p className="muted">
                  Invited, no account yet:{' '}
                  {q.data.pending_invitations!.map((p) => `${p.email} (${p.permission})`).join(', ')}
                </p>
              )}
              <form
                className="inline-form"
                aria-label="Invite members"
                onSubmit={(e) => {
                  e.preventDefault();
                  const list = emails
                    .split(/[\s,;]+/)
                    .map((x) => x.trim())
                    .filter(Boolean);
                  void act(
                    () => client.call(postGroupsBySlugInvite, { params: { slug }, body: { emails: list, permission } }),
                    `Invited ${list.join(', ')}`,
                  ).then((ok) => ok && setEmails(''));
                }}
              >
                <label className={`field${inviteReason ? ' field-invalid' : ''}`}>
                  <span>Invite by e-mail (several separated by commas)</span>
                  <input
                    required
                    ref={inviteInput}
                    value={emails}
                    aria-invalid={inviteReason ? true : undefined}
                    aria-describedby={inviteReason ? 'invite-reason' : undefined}
                    onChange={(e) => setEmails(e.target.value)}
                  />
                  <FieldMessage id="invite-reason" message={inviteReason} />
                </label>
                <label className="field">
                  <span>Their permission</span>
                  <select
                    value={permission}
                    onChange={(e) => setPermission(PERMISSIONS.find((p) => p === e.target.value) ?? 'view')}
                  >
                    <option value="view">view</option>
                    <option value="edit">edit</option>
                    <option value="share">share</option>
                  </select>
                </label>
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  Invite
                </button>
              </form>
            </>
          )}
          <ConfirmDialog
            open={confirm !== null}
            title={confirm === 'delete' ? `Delete the group ${q.data.name}?` : `Leave ${q.data.name}?`}
            cancelLabel={confirm === 'delete' ? 'Keep the group' : 'Stay in the group'}
            confirmLabel={confirm === 'delete' ? 'Delete group' : 'Leave group'}
            tone="danger"
            busy={busy}
            onCancel={() => setConfirm(null)}
            onConfirm={() =>
              void (confirm === 'delete'
                ? act(
                    () => client.call(deleteGroupsBySlug, { params: { slug } }),
                    `Group ${q.data?.name} deleted`,
                    true,
                  )
                : act(() => client.call(postGroupsBySlugLeave, { params: { slug } }), `You left ${q.data?.name}`, true))
            }
          >
            {confirm === 'delete'
              ? 'Everything shared with the group stops being shared; group-owned resources go with it.'
              : 'You lose access to everything shared with this group at once.'}
          </ConfirmDialog>
        </>
      )}
    </section>
  );
}
