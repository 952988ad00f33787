/**
 * Account > API keys: create a named key (optionally expiring), shown exactly once with a copy
 * button; the list with name, created, last used and expiry; revoke after a confirmation. An
 * administrator may list and revoke every user's keys. The service keeps only a hash, so a key
 * closed here without copying is gone: revoke it and make another.
 */
import { useState } from 'react';
import type { ApiKey } from '../../../../shared/service-api';
import { useServices } from '../../service-client/services-context';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorNotice } from '../../ui/error-notice';
import { formatTime } from '../../ui/format';
import { Pager } from '../../ui/pager';
import { Loading } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { deleteApiKeysById, getApiKeys, postApiKeys } from '../../../../shared/service-api/endpoints';

const PER_PAGE = 25;

/** The new key, once: copy it or lose it. */
function NewKeyNotice({ created, onDone }: { created: ApiKey; onDone(): void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(created.key ?? '').then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <div className="notice" role="status" data-testid="new-api-key">
      <p>
        <strong>{created.name}</strong>: copy this key now. It is shown only once; the service keeps only a hash of it.
      </p>
      <input
        readOnly
        className="input mono"
        aria-label="The new API key"
        data-testid="new-api-key-value"
        value={created.key ?? ''}
        onFocus={(e) => e.currentTarget.select()}
        size={52}
      />{' '}
      <button type="button" className="btn btn-small" data-testid="copy-api-key" onClick={() => void copy()}>
        Copy
      </button>{' '}
      {copied === 'yes' && <span data-testid="api-key-copied">Copied to the clipboard</span>}
      {copied === 'failed' && <span>Copying was refused: select the key and copy it by hand</span>}{' '}
      <button type="button" className="btn btn-small" data-testid="api-key-done" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}

/** Renders the API keys card. */
export function ApiKeysCard({ isAdmin }: { isAdmin: boolean }) {
  const { client } = useServices();
  const [page, setPage] = useState(1);
  const [everyone, setEveryone] = useState(false);
  const [form, setForm] = useState({ name: '', days: '' });
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [error, setError] = useState<unknown>(null);
  const list = useQuery(
    () => client.call(getApiKeys, { query: { page, per_page: PER_PAGE, ...(everyone ? { all: true } : {}) } }),
    `api-keys:${page}:${everyone}`,
  );
  const create = () => {
    setError(null);
    const body = { name: form.name, ...(form.days ? { expires_in_days: Number(form.days) } : {}) };
    client.call(postApiKeys, { body }).then((k) => {
      setCreated(k);
      setForm({ name: '', days: '' });
      list.reload();
    }, setError);
  };
  const revoke = (k: ApiKey) => {
    setError(null);
    client.call(deleteApiKeysById, { params: { id: k.id } }).then(
      () => {
        setRevoking(null);
        list.reload();
      },
      (err: unknown) => {
        setRevoking(null);
        setError(err);
      },
    );
  };
  return (
    <section className="card" aria-labelledby="api-keys-title" data-testid="api-keys">
      <h3 id="api-keys-title">API keys</h3>
      <p className="field-help">
        For scripts and the <code>laneway</code> command (<code>LANEWAY_TOKEN</code>): a key acts as you, with your
        rights as they are when it is used, until it expires or is revoked.
      </p>
      {created && <NewKeyNotice created={created} onDone={() => setCreated(null)} />}
      <form
        className="inline-form"
        aria-label="Create an API key"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <label className="field">
          <span>Key name</span>
          <input
            required
            maxLength={100}
            data-testid="api-key-name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Expires after (days, empty: never)</span>
          <input
            type="number"
            min={1}
            max={3650}
            value={form.days}
            onChange={(e) => setForm({ ...form, days: e.target.value })}
          />
        </label>
        <button type="submit" className="btn" data-testid="create-api-key">
          Create key
        </button>
      </form>
      <ErrorNotice error={list.error ?? error} onRetry={list.error ? list.reload : undefined} />
      {isAdmin && (
        <label className="check">
          <input type="checkbox" checked={everyone} onChange={(e) => setEveryone(e.target.checked)} /> Show every
          user&apos;s keys
        </label>
      )}
      {list.loading && !list.data && <Loading what="your API keys" />}
      {list.data && list.data.count === 0 && <p className="muted">No API keys.</p>}
      {list.data && list.data.count > 0 && (
        <table className="grid" data-testid="api-keys-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              {everyone && <th scope="col">User</th>}
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((k) => (
              <tr key={k.id} data-testid={`api-key-${k.name}`}>
                <td>{k.name}</td>
                {everyone && <td>{k.user}</td>}
                <td className="mono">{k.prefix}…</td>
                <td>{formatTime(k.created)}</td>
                <td>{k.last_used ? formatTime(k.last_used) : 'never'}</td>
                <td>{k.expires ? formatTime(k.expires) : 'never'}</td>
                <td>
                  <button type="button" className="btn btn-small" onClick={() => setRevoking(k)}>
                    Revoke {k.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager page={page} perPage={PER_PAGE} count={list.data.count} onPage={setPage} />}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke the key "${revoking?.name ?? ''}"?`}
        confirmLabel="Revoke"
        cancelLabel="Keep the key"
        tone="danger"
        onConfirm={() => revoking && revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        Scripts using it stop working at once; this cannot be undone.
      </ConfirmDialog>
    </section>
  );
}
