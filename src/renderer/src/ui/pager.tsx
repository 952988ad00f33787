/** Previous/next paging over the service's `{count, page, per_page}` collections. */

/** Shows "21–40 of 73" with the two buttons; renders nothing for a single page. */
export function Pager(props: { page: number; perPage: number; count: number; onPage(page: number): void }) {
  const { page, perPage, count, onPage } = props;
  if (count <= perPage) return null;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(count, page * perPage);
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        {first}–{last} of {count}
      </span>
      <button type="button" className="btn btn-small" disabled={last >= count} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
