/**
 * For service administrators: the accounts, who may run pipelines, who administers, who is
 * disabled, and a form to add an account. Each change is one request; the service's refusal
 * (its own last-admin rule, a taken username) is shown on the row or field it names.
 */
import { useRef, useState } from 'react';
import { useServices } from '../../service-client/services-context';
import type { User, UserChangesBody } from '../../../../shared/service-api/identity';
import { ErrorNotice } from '../../ui/error-notice';
import { fieldErrorsOf, FieldMessage, reasonFor, useFocusFirstInvalid } from '../../ui/field-errors';
import { Pager } from '../../ui/pager';
import { Loading } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { getUsers, postUsers, putUsersById } from '../../../../shared/service-api/endpoints';

const PER_PAGE = 50;
const EMPTY = { username: '', name: '', email: '', password: '', can_run_pipelines: true };

function NewUserForm({ onCreated }: { onCreated(): void }) {
  const { client } = useServices();
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<unknown>(null);
  const ref = useRef<HTMLFormElement>(null);
  const errors = fieldErrorsOf(error);
  useFocusFirstInvalid(ref, errors);
  const field = (key: 'username' | 'name' | 'email' | 'password', label: string, type = 'text') => {
    const reason = reasonFor(errors, key);
    return (
      <label className={`field${reason ? ' field-invalid' : ''}`}>
        <span>{label}</span>
        <input
          type={type}
          required
          autoComplete={type === 'password' ? 'new-password' : 'off'}
          value={form[key]}
          aria-invalid={reason ? true : undefined}
          aria-describedby={reason ? `new-user-${key}-reason` : undefined}
          onChange={(e) => setForm({ ...form, [key]: e.target.value })}
        />
        <FieldMessage id={`new-user-${key}-reason`} message={reason} />
      </label>
    );
  };
  return (
    <form
      ref={ref}
      className="inline-form"
      aria-label="Add an account"
      data-testid="new-user-form"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        client.call(postUsers, { body: form }).then(() => {
          setForm(EMPTY);
          onCreated();
        }, setError);
      }}
    >
      {field('username', 'Username')}
      {field('name', 'Full name')}
      {field('email', 'E-mail', 'email')}
      {field('password', 'First password', 'password')}
      <label className="check">
        <input
          type="checkbox"
          checked={form.can_run_pipelines}
          onChange={(e) => setForm({ ...form, can_run_pipelines: e.target.checked })}
        />{' '}
        May run pipelines
      </label>
      <button type="submit" className="btn">
        Add account
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

/** Renders the users card. */
export function UsersAdmin({ me }: { me: number }) {
  const { client } = useServices();
  const [page, setPage] = useState(1);
  const list = useQuery(() => client.call(getUsers, { query: { page, per_page: PER_PAGE } }), `users:${page}`);
  const [error, setError] = useState<unknown>(null);
  const change = (u: User, patch: UserChangesBody) => {
    setError(null);
    client.call(putUsersById, { params: { id: u.id }, body: patch }).then(list.reload, setError);
  };
  const admins = (list.data?.items ?? []).filter((u) => u.is_admin && !u.disabled).length;
  return (
    <section className="card" aria-labelledby="users-title" data-testid="users-admin">
      <h3 id="users-title">Accounts on this service</h3>
      <p className="field-help">Only administrators see this. Pipelines run only for accounts allowed to run them.</p>
      {list.loading && !list.data && <Loading what="the accounts" />}
      <ErrorNotice error={list.error ?? error} onRetry={list.error ? list.reload : undefined} />
      {list.data && (
        <table className="grid" data-testid="users-table">
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">E-mail</th>
              <th scope="col">May run pipelines</th>
              <th scope="col">Administrator</th>
              <th scope="col">Active</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((u) => {
              // The last active administrator (and oneself) cannot be demoted or disabled here.
              const lastAdmin = u.is_admin && admins <= 1;
              return (
                <tr key={u.id} data-testid={`user-${u.username}`}>
                  <td>
                    {u.name || u.username} <span className="muted">({u.username})</span>
                  </td>
                  <td>{u.email}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${u.username} may run pipelines`}
                      checked={u.can_run_pipelines}
                      onChange={(e) => change(u, { can_run_pipelines: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${u.username} is an administrator`}
                      checked={u.is_admin}
                      disabled={u.id === me || lastAdmin}
                      title={u.id === me ? 'You cannot remove your own administrator role' : undefined}
                      onChange={(e) => change(u, { is_admin: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${u.username} may sign in`}
                      checked={!u.disabled}
                      disabled={u.id === me}
                      onChange={(e) => change(u, { disabled: !e.target.checked })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {list.data && <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />}
      <h4>Add an account</h4>
      <NewUserForm onCreated={list.reload} />
    </section>
  );
}
