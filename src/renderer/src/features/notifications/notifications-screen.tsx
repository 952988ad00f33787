/**
 * Notifications in both modes: what happened on this computer (runs, uploads, lanes), and the
 * service's outbox for this user (executions that ended, invitations answerable in place).
 * Each notice is listed once: a service notice the app passed on live is under the service's.
 */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { formatHash } from '../../store/route';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { formatTime, humaniseTimes } from '../../ui/format';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { invitationNotice, invitationStateText } from './invitation-notice';
import {
  getMe,
  getNotifications,
  postGroupsBySlugAccept,
  postGroupsBySlugDecline,
} from '../../../../shared/service-api/endpoints';

/** Renders the notifications screen. */
export function NotificationsScreen() {
  const { client, api } = useServices();
  const setAuth = useAppStore((s) => s.setAuth);
  // A service notice passed on live (an execution that ended) reloads the service's list.
  const passedOn = useAppStore((s) => s.activity.filter((a) => a.serviceId !== undefined).length);
  const list = useQuery(
    () => client.call(getNotifications, { query: { per_page: 100 } }).then((r) => r.items),
    `notifications:${passedOn}`,
  );
  const me = useQuery(() => client.call(getMe), 'me-notifications');
  const [error, setError] = useState<unknown>(null);
  const [answered, setAnswered] = useState<Record<string, string>>({});
  // A service notice passed on live is also in the service's list below: listed once, there.
  const activity = useAppStore((s) => s.activity).filter((a) => a.serviceId === undefined);

  const answer = async (slug: string, verb: 'accept' | 'decline') => {
    setError(null);
    try {
      await client.call(verb === 'accept' ? postGroupsBySlugAccept : postGroupsBySlugDecline, { params: { slug } });
      setAnswered((a) => ({ ...a, [slug]: verb === 'accept' ? 'Accepted' : 'Declined' }));
      me.reload();
      void api.auth.status().then(setAuth, () => {});
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section aria-labelledby="notifications-title">
      <ScreenHeader title="Notifications" id="notifications-title">
        <button type="button" className="btn" onClick={list.reload}>
          Refresh
        </button>
      </ScreenHeader>
      <ErrorNotice error={error} />
      <section className="card" aria-labelledby="activity-title">
        <h3 id="activity-title">On this computer</h3>
        <ul className="plain-list" data-testid="activity-list">
          {activity.map((a) => (
            <li key={a.id}>
              <span
                className={`status-pill status-${a.tone === 'bad' ? 'failed' : a.tone === 'ok' ? 'completed' : 'running'}`}
              >
                {a.tone === 'bad' ? 'failed' : a.tone === 'ok' ? 'done' : 'info'}
              </span>
              <strong>{a.title}</strong> <span>{a.body}</span> <span className="muted">{formatTime(a.at)}</span>
            </li>
          ))}
          {activity.length === 0 && <li className="muted">Nothing yet since this window opened.</li>}
        </ul>
      </section>
      <section className="card" aria-labelledby="service-notices-title">
        <h3 id="service-notices-title">From the service</h3>
        {list.loading && !list.data && <Loading what="notifications" />}
        <ErrorNotice error={list.error} onRetry={list.reload} />
        {list.data && (
          <ul className="plain-list" data-testid="notifications-list">
            {list.data.map((n) => {
              const invitation = invitationNotice(n, me.data);
              const execution = typeof n.data?.execution_id === 'number' ? n.data.execution_id : null;
              const done = invitation ? answered[invitation.slug] : undefined;
              const state = invitation && !done ? invitationStateText(invitation) : null;
              return (
                <li key={n.id} className="notification">
                  <div>
                    <strong>{n.subject ?? n.kind}</strong> <span className="muted">{formatTime(n.created)}</span>
                    <p className="notification-body">{invitation?.text ?? humaniseTimes(n.body)}</p>
                    {state && <p className="muted">{state}</p>}
                  </div>
                  <div className="notification-actions">
                    {execution !== null && (
                      <a className="btn btn-small" href={formatHash('executions', { id: execution })}>
                        Open execution {execution}
                      </a>
                    )}
                    {done && <span className="badge badge-ok">{done}</span>}
                    {/* Buttons name the group as people know it; the slug is what the service acts on. */}
                    {invitation &&
                      !done &&
                      invitation.state === 'open' &&
                      (['accept', 'decline'] as const).map((verb) => (
                        <button
                          key={verb}
                          type="button"
                          className="btn btn-small"
                          onClick={() => void answer(invitation.slug, verb)}
                        >
                          {verb === 'accept' ? 'Accept' : 'Decline'} invitation to {invitation.groupName}
                        </button>
                      ))}
                  </div>
                </li>
              );
            })}
            {list.data.length === 0 && <li className="muted">Nothing new.</li>}
          </ul>
        )}
      </section>
    </section>
  );
}
