import type { DatabaseSync, StatementSync } from './sqlite.js';
import { prepared } from './statements.js';

type Value = string | number | null;

/**
 * Multi-row INSERT: rows are bound `rowsPerStatement` at a time into one
 * reused argument array, which amortises the per-call cost of binding
 * (several times faster than one statement per row for narrow rows).
 */
export class BatchInsert {
  private readonly full: StatementSync;
  private readonly single: StatementSync;
  private readonly args: Value[];
  private readonly width: number;
  private readonly rowsPerStatement: number;
  private filled = 0;

  /** `rows`: how many rows will be added (so a small table does not prepare a statement for 128). */
  constructor(db: DatabaseSync, table: string, columns: readonly string[], rows: number, maxRowsPerStatement = 128) {
    this.width = columns.length;
    this.rowsPerStatement = Math.max(1, Math.min(rows, maxRowsPerStatement));
    const row = `(${columns.map(() => '?').join(',')})`;
    const head = `INSERT INTO ${table} (${columns.join(',')}) VALUES `;
    this.full = prepared(db, head + Array.from({ length: this.rowsPerStatement }, () => row).join(','));
    this.single = prepared(db, head + row);
    this.args = new Array<Value>(this.width * this.rowsPerStatement).fill(null);
  }

  /** Add one row: exactly one value per column, in column order. */
  add(...values: Value[]): void {
    this.put(values);
  }

  /** `add` without the rest-parameter array (hot loops pass a reused row array). */
  put(values: readonly Value[]): void {
    const args = this.args;
    let at = this.filled * this.width;
    for (let i = 0; i < this.width; i += 1) args[at++] = values[i]!;
    this.filled += 1;
    if (this.filled === this.rowsPerStatement) {
      this.full.run(...args);
      this.filled = 0;
    }
  }

  /** Insert what is buffered (call once at the end). */
  flush(): void {
    for (let r = 0; r < this.filled; r += 1) this.single.run(...this.args.slice(r * this.width, (r + 1) * this.width));
    this.filled = 0;
  }
}
