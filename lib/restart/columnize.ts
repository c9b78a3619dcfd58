/**
 * Nomad's tables and key/value blocks, laid out as its CLI lays them out with the `columnize`
 * library (`command/helpers.go` `formatList` and `formatKV`).
 */

/** What a cell shows when it is empty (Nomad's `columnConf.Empty`). */
const EMPTY = '<none>';

/**
 * Lays out `cells` (rows of cells): each cell trimmed, empty ones shown as `<none>`, columns padded
 * to their widest cell and joined by `glue`, the last column not padded. Cells are given apart, so
 * a `|` in a value (a run's reason) stays in its cell.
 */
export function columnizeCells(cells: readonly (readonly string[])[], glue = '  '): string {
  const rows = cells.map((row) => row.map((c) => c.trim() || EMPTY));
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length),
        )
        .join(glue),
    )
    .join('\n');
}

/** `columnize.Format` with Nomad's config (`formatList`): `|`-separated rows. */
export function columnize(rows: readonly string[]): string {
  return columnizeCells(rows.map((row) => row.split('|')));
}

/** Nomad's `formatKV`: `Label = value` lines, the labels padded to the longest. */
export function formatKV(pairs: readonly (readonly [string, string])[]): string {
  return columnizeCells(pairs, ' = ');
}
