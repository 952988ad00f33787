/**
 * The signed-in account: who (from the service's `/api/me`), on which service, where the
 * token is kept, password change, API keys, the accounts for administrators, the profiles to switch
 * between without restarting, and sign-out.
 */
import { useState } from 'react';
import { useAppStore } from '../../store';
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { Loading, ScreenHeader } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { ApiKeysCard } from './api-keys-card';
import { KeychainNote } from './keychain-note';
import { PasswordForm } from './password-form';
import { useSessionActions } from './use-session-actions';
import { UsersAdmin } from './users-admin';
import { getMe } from '../../../../shared/service-api/endpoints';

/** Renders the account screen. */
export function AccountScreen() {
  const { client } = useServices();
  const auth = useAppStore((s) => s.auth);
  const profiles = useAppStore((s) => s.profiles);
  const actions = useSessionActions();
  const [error, setError] = useState<unknown>(null);
  const [remote, setRemote] = useState({ name: '', url: '', flow: false });
  // A Flow server's account comes from the desktop core (Flow's /me); it has no /api to ask.
  const flow = profiles?.profiles.find((p) => p.id === profiles.active_id)?.wire === 'flow';
  const laneMe = useQuery(
    () => (flow ? Promise.resolve(null) : client.call(getMe)),
    `me:${auth?.profile_id}:${auth?.user?.id}:${flow}`,
  );
  const me = flow ? { ...laneMe, loading: false, data: auth?.user ?? undefined } : laneMe;

  const act = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch(setError);
  };
  return (
    <section aria-labelledby="account-title">
      <ScreenHeader title="Account" id="account-title">
        <button type="button" className="btn" data-testid="logout" onClick={() => act(actions.logout)}>
          Sign out
        </button>
      </ScreenHeader>
      <ErrorNotice error={error} />
      <div className="card" data-testid="signed-in">
        <h3>Signed in</h3>
        {me.loading && <Loading what="your account" />}
        <ErrorNotice error={me.error} onRetry={me.reload} />
        {me.data && (
          <dl className="facts">
            <dt>User</dt>
            <dd data-testid="me-username">
              {me.data.name || me.data.username} ({me.data.username})
            </dd>
            <dt>E-mail</dt>
            <dd>{me.data.email || '—'}</dd>
            <dt>Roles</dt>
            <dd>
              {me.data.is_admin ? 'administrator' : 'user'}
              {me.data.can_run_pipelines ? ', may run pipelines' : ', may not run pipelines'}
            </dd>
            <dt>Groups</dt>
            <dd>{me.data.groups.map((g) => `${g.name} (${g.role})`).join(', ') || 'none'}</dd>
          </dl>
        )}
        {auth && <KeychainNote auth={auth} />}
      </div>

      {flow && (
        <p className="notice" data-testid="flow-account-note">
          Signed in to a Flow server: change your password, API keys and accounts in Flow&apos;s web app.
        </p>
      )}
      {!flow && me.data && <PasswordForm username={me.data.username} />}
      {!flow && me.data && <ApiKeysCard isAdmin={me.data.is_admin} />}
      {!flow && me.data?.is_admin && <UsersAdmin me={me.data.id} />}

      <div className="card">
        <h3>Services</h3>
        <ul className="plain-list" data-testid="profiles">
          {profiles?.profiles.map((p) => (
            <li key={p.id}>
              <strong>{p.name}</strong> <span className="muted">{p.kind === 'embedded' ? 'this computer' : p.url}</span>
              {p.wire === 'flow' && <span className="badge">Flow server</span>}
              {p.username && <span className="muted"> · {p.username}</span>}
              {p.active ? (
                <span className="badge badge-ok">active</span>
              ) : (
                <>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => act(() => actions.switchProfile(p.id))}
                  >
                    Switch to {p.name}
                  </button>
                  {p.kind === 'remote' && (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => act(() => actions.removeProfile(p.id))}
                    >
                      Remove {p.name}
                    </button>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => actions.addRemote(remote.name, remote.url, remote.flow ? 'flow' : 'laneway'));
          }}
        >
          <label className="field">
            <span>Name</span>
            <input required value={remote.name} onChange={(e) => setRemote({ ...remote, name: e.target.value })} />
          </label>
          <label className="field">
            <span>Service address</span>
            <input
              type="url"
              required
              value={remote.url}
              onChange={(e) => setRemote({ ...remote, url: e.target.value })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={remote.flow}
              data-testid="profile-flow"
              onChange={(e) => setRemote({ ...remote, flow: e.target.checked })}
            />
            Flow server (its API base URL, such as https://app.flow.bio/api)
          </label>
          <button type="submit" className="btn">
            Add and switch
          </button>
        </form>
      </div>
    </section>
  );
}
