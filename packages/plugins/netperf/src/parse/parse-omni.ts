import { CSV_HEADER_SELECTORS } from '../selectors.js';
import { splitCsvLine } from './csv-line.js';

export interface OmniFields {
  readonly format: 'omni-csv' | 'omni-keyval' | 'omni-human';
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

/** A line of column titles: names a netperf selector's title and holds no number (a values line does). */
function titlesOf(line: string): string[] | undefined {
  const titles = splitCsvLine(line).map((title) => title.trim());
  if (titles.some((title) => NUMBER_RE.test(title))) return undefined;
  return titles;
}

/**
 * `-o` output: a header line of column titles and the line of values under
 * it. netperf silently prints empty trailing values for selectors it does not
 * know, so extra empty values are tolerated. Also read:
 *  - a header wrapped over several lines (as PKB's logs and docstrings carry
 *    it): title lines are joined until the values line;
 *  - a selector netperf prints no heading for: its `print_omni_csv` then
 *    writes no header field but still a (blank) value, so the values line
 *    has one more field than the header; the blank value is dropped where
 *    the columns line up again (the units column holds a unit).
 */
export function parseOmniCsv(lines: readonly string[]): OmniFields | undefined {
  // One pass over the lines: a run of title lines, then its values line. Each start within the run is a
  // candidate header (repeated `-o` headers: the last one is the values' own); only starts whose titles
  // could line up with the values (at most one more field) are tried, so the work stays linear in the text.
  const nextNonBlank = (from: number) => {
    for (let at = from; at < lines.length; at++) if ((lines[at] as string).trim() !== '') return at;
    return -1;
  };
  const headerLine = (at: number): string[] | undefined => {
    const titles = titlesOf(lines[at] as string);
    return titles?.some((title) => title in CSV_HEADER_SELECTORS) ? titles.filter((title, i) => title !== '' || i < titles.length - 1) : undefined;
  };
  for (let index = 0; index < lines.length - 1; index++) {
    const first = headerLine(index);
    if (!first) continue;
    const run: string[][] = [first];
    let valuesIndex = nextNonBlank(index + 1);
    // Wrapped header: the next non-blank lines are titles too.
    for (let more = valuesIndex >= 0 ? headerLine(valuesIndex) : undefined; more; more = valuesIndex >= 0 ? headerLine(valuesIndex) : undefined) {
      run.push(more);
      valuesIndex = nextNonBlank(valuesIndex + 1);
    }
    if (valuesIndex < 0) return undefined;
    const values = splitCsvLine(lines[valuesIndex] as string);
    // Titles from each start to the end of the run, latest start first to find the longest that still fits.
    const suffix = new Array<number>(run.length + 1).fill(0);
    for (let k = run.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1]! + run[k]!.length;
    for (let k = 0; k < run.length; k++) {
      if (suffix[k]! > values.length + 1) continue;
      const header = run.slice(k).flat();
      const aligned = alignValues(header, values);
      if (!aligned) continue;
      const fields: Record<string, string> = {};
      header.forEach((title, column) => {
        fields[CSV_HEADER_SELECTORS[title] ?? title] = (aligned[column] as string).trim();
      });
      return { format: 'omni-csv', fields, line: valuesIndex + 1 };
    }
    // Every start in this run was tried: go on after its values line.
    index = valuesIndex;
  }
  return undefined;
}

const UNIT_TITLE = 'Throughput Units';

/** The values under `header`, or undefined when they cannot be lined up. */
function alignValues(header: readonly string[], values: readonly string[]): string[] | undefined {
  if (values.length < header.length) return undefined;
  if (values.slice(header.length).every((value) => value.trim() === '')) return values.slice(0, header.length);
  // One more field than titles: a heading-less selector's blank value (see parseOmniCsv).
  if (values.length !== header.length + 1) return undefined;
  const unitColumn = header.indexOf(UNIT_TITLE);
  for (let blank = 0; blank < values.length; blank++) {
    if ((values[blank] as string).trim() !== '') continue;
    const aligned = values.filter((_, at) => at !== blank);
    if (unitColumn < 0 || UNIT_VALUE_RE.test((aligned[unitColumn] as string).trim())) return aligned;
  }
  return undefined;
}

const UNIT_VALUE_RE = /^(Trans\/s|[\d^]*\S*bits\/s|[\d^]*\S*Bytes\/s|\S+\/s)$/;
