/** Stands in for a long table's rows outside the view (use-row-window.ts), at their height. */
export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" className="row-spacer" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
