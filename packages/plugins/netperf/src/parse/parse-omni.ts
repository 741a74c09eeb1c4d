import { splitCsvLine } from './csv-line.js';
import { CSV_HEADER_SELECTORS } from '../selectors.js';

export interface OmniFields {
  readonly format: 'omni-csv' | 'omni-keyval';
  readonly fields: Record<string, string>;
  /** 1-based line of the values (CSV) or of `THROUGHPUT=` (key=value). */
  readonly line: number;
}

const KEYVAL_RE = /^([A-Z][A-Z0-9_]*)=(.*)$/;
const NUMBER_RE = /^-?\d+(?:\.\d+)?$/;

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/** `-k` output: one `SELECTOR=value` per line. */
export function parseOmniKeyval(lines: readonly string[]): OmniFields | undefined {
  const fields: Record<string, string> = {};
  let line = 0;
  lines.forEach((text, index) => {
    const match = KEYVAL_RE.exec(text.trim());
    if (!match) return;
    const key = match[1] as string;
    fields[key] = unquote((match[2] as string).trim());
    if (key === 'THROUGHPUT') line = index + 1;
  });
  return line > 0 ? { format: 'omni-keyval', fields, line } : undefined;
}

/**
 * `-o` output: a header line of column titles and the line of values under
 * it. netperf silently prints empty trailing values for selectors it does not
 * know, so extra empty values are tolerated.
 */
export function parseOmniCsv(lines: readonly string[]): OmniFields | undefined {
  for (let index = 0; index < lines.length - 1; index++) {
    const header = splitCsvLine(lines[index] as string).map((title) => title.trim());
    if (!header.some((title) => title in CSV_HEADER_SELECTORS)) continue;
    if (header.some((title) => NUMBER_RE.test(title))) continue;
    const valuesIndex = lines.findIndex((text, at) => at > index && text.trim() !== '');
    if (valuesIndex < 0) return undefined;
    const values = splitCsvLine(lines[valuesIndex] as string);
    const extra = values.slice(header.length);
    if (values.length < header.length || extra.some((value) => value.trim() !== '')) continue;
    const fields: Record<string, string> = {};
    header.forEach((title, column) => {
      fields[CSV_HEADER_SELECTORS[title] ?? title] = (values[column] as string).trim();
    });
    return { format: 'omni-csv', fields, line: valuesIndex + 1 };
  }
  return undefined;
}
