/**
 * For service administrators: free space on the service's data disk and the users storing the
 * most against their quota (GET /api/admin/storage), so a filling disk is seen before it is full.
 */
import { useServices } from '../../service-client/services-context';
import { ErrorNotice } from '../../ui/error-notice';
import { formatBytes } from '../../ui/format';
import { Loading } from '../../ui/section';
import { useQuery } from '../../ui/use-query';
import { getAdminStorage, getMe } from '../../../../shared/service-api/endpoints';

function Report() {
  const { client } = useServices();
  const q = useQuery(() => client.call(getAdminStorage), 'admin-storage');
  if (q.loading && !q.data) return <Loading what="the service's storage" />;
  if (!q.data) return <ErrorNotice error={q.error} onRetry={q.reload} />;
  const r = q.data;
  return (
    <>
      <dl className="facts">
        <dt>Free on the service's data disk</dt>
        <dd data-testid="service-free-space">
          {r.free_bytes === null ? 'not reported' : formatBytes(r.free_bytes)}
          {r.total_bytes !== null ? ` of ${formatBytes(r.total_bytes)}` : ''}
        </dd>
      </dl>
      <table className="grid storage-users" data-testid="largest-users">
        <caption>Users storing the most</caption>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Stored</th>
            <th scope="col">Quota</th>
          </tr>
        </thead>
        <tbody>
          {r.largest_users.map((u) => (
            <tr key={u.user_id}>
              <td>{u.username}</td>
              <td>{formatBytes(u.bytes)}</td>
              <td>{formatBytes(u.quota_bytes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" className="btn btn-small" onClick={q.reload}>
        Refresh
      </button>
    </>
  );
}

/** Renders nothing for users who are not service administrators. */
export function ServiceStorageCard() {
  const { client } = useServices();
  const me = useQuery(() => client.call(getMe), 'me');
  if (!me.data?.is_admin) return null;
  return (
    <section className="card" aria-labelledby="service-storage-title" data-testid="settings-service-storage">
      <h3 id="service-storage-title">Service storage</h3>
      <Report />
    </section>
  );
}
