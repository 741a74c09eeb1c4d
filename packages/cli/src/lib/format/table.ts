export type Align = 'left' | 'right';

export interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => string;
  readonly align?: Align;
}

// Visible width: ANSI colour codes take no room on screen.
const ANSI_RE = /\x1b\[[0-9;]*m/g;
const width = (text: string) => text.replace(ANSI_RE, '').length;

/** A plain-text table with a header rule; columns sized to their widest cell. */
export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, i) => Math.max(width(column.header), ...cells.map((line) => width(line[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const fill = ' '.repeat(Math.max(0, (widths[i] ?? 0) - width(text)));
    return columns[i]?.align === 'right' ? fill + text : text + fill;
  };
  const line = (values: readonly string[]) => values.map(pad).join('  ').trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '─'.repeat(w))), ...cells.map(line)].join('\n');
}
