/**
 * The widths of a fixed-layout table's columns, one `<col>` each. Windowed tables need them: the
 * rows in the page change as it scrolls, and columns sized to those rows would shift.
 */
export function ColumnWidths({ widths }: { widths: readonly string[] }) {
  return (
    <colgroup>
      {widths.map((width, i) => (
        <col key={i} style={{ width }} />
      ))}
    </colgroup>
  );
}
