import { CSV_HEADER_SELECTORS } from '../selectors.js';
import type { OmniFields } from './parse-omni.js';

const TOKEN_RE = /\S+/g;
const MAX_SEARCH_LINES = 40;

interface Token {
  readonly start: number;
  readonly text: string;
}

function tokens(line: string): Token[] {
  return [...line.matchAll(TOKEN_RE)].map((match) => ({ start: match.index, text: match[0] }));
}

/**
 * `-O` output (netperf's `print_omni_human`): each selector's title over up
 * to four heading lines, left-aligned in a fixed-width column, then one
 * line of values starting at the same columns:
 *
 *     Minimum      Mean         Maximum      Stddev       Transaction
 *     Latency      Latency      Latency      Latency      Rate
 *     Microseconds Microseconds Microseconds Microseconds Tran/s
 *
 *     18           33.75        96004        795.77       29573.834
 *
 * A column starts where a value starts and every heading line has a space
 * (or has ended) just before it; its title is its heading words joined by
 * spaces, which is the title `-o` prints (`Minimum Latency Microseconds`).
 * Returns undefined unless the titles name netperf selectors.
 */
export function parseOmniHuman(lines: readonly string[], from: number): OmniFields | undefined {
  // The table follows the banner closely (a wrapped banner's tail may sit in between); try each start.
  for (let index = from; index < Math.min(lines.length, from + MAX_SEARCH_LINES); index++) {
    const heading: string[] = [];
    let at = index;
    while (at < lines.length && heading.length < 4 && (lines[at] as string).trim() !== '' && !/\d/.test(tokens(lines[at] as string)[0]?.text ?? '0')) {
      heading.push(lines[at] as string);
      at++;
    }
    if (heading.length === 0) continue;
    const valuesIndex = lines.findIndex((text, i) => i >= at && text.trim() !== '');
    if (valuesIndex < 0) return undefined;
    const values = tokens(lines[valuesIndex] as string);
    const starts = values.map((token) => token.start).filter((start) => start === 0 || heading.every((line) => start - 1 >= line.length || line[start - 1] === ' '));
    if (starts.length === 0) continue;
    const fields: Record<string, string> = {};
    let known = 0;
    starts.forEach((start, column) => {
      const end = starts[column + 1];
      const cut = (line: string) => line.slice(start, end).trim();
      const title = heading
        .map(cut)
        .filter((part) => part !== '')
        .join(' ');
      const value = cut(lines[valuesIndex] as string);
      const selector = CSV_HEADER_SELECTORS[title];
      if (selector) known++;
      fields[selector ?? title] = value;
    });
    if (known > 0 && known === starts.length) return { format: 'omni-human', fields, line: valuesIndex + 1 };
  }
  return undefined;
}
