/** A number as the benchmark tables show it (en-GB, `digits` decimals); '-' when there is none. */
export const fmt = (value: number, digits = 1): string =>
  Number.isFinite(value)
    ? value.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '-';

/** Prints a table: the first column left-aligned, the others right-aligned, the header ruled off. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (i === 0 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}
