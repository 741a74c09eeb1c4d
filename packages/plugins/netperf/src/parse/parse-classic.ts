import { ParseError } from '@netbench/plugin-api';
import { isRequestResponse, type NetperfTest } from '../tests.js';
import { THROUGHPUT_UNIT_RE } from './units.js';

const NUMBER_RE = /^-?\d+(?:\.\d+)?$/;

function numericTokens(line: string): string[] | undefined {
  const tokens = line.trim().split(/\s+/);
  return tokens.length >= 2 && tokens.every((token) => NUMBER_RE.test(token)) ? tokens : undefined;
}

/** Fields read from the classic table, named like the omni selectors that hold the same value. */
export interface ClassicTable {
  readonly fields: Record<string, string>;
  /** 1-based line of the (first) values row. */
  readonly line: number;
}

// Column positions of each classic table, by test. netperf 2.7.0 prints the
// same columns with `-c`/`-C`, followed by CPU utilisation and service demand.
type Columns = readonly (string | undefined)[];
const RR_COLUMNS: Columns = ['LSS_SIZE', 'LSR_SIZE', 'REQUEST_SIZE', 'RESPONSE_SIZE', 'ELAPSED_TIME', 'THROUGHPUT', 'LOCAL_CPU_UTIL', 'REMOTE_CPU_UTIL'];
const STREAM_COLUMNS: Columns = ['RSR_SIZE', 'LSS_SIZE', 'LOCAL_SEND_SIZE', 'ELAPSED_TIME', 'THROUGHPUT', 'LOCAL_CPU_UTIL', 'REMOTE_CPU_UTIL'];
const MAERTS_COLUMNS: Columns = ['LSR_SIZE', 'RSS_SIZE', 'REMOTE_SEND_SIZE', 'ELAPSED_TIME', 'THROUGHPUT', 'LOCAL_CPU_UTIL', 'REMOTE_CPU_UTIL'];
// UDP_STREAM prints the sender's line, then the receiver's; the receiver's is the throughput that arrived.
const UDP_SEND_COLUMNS: Columns = ['LSS_SIZE', 'LOCAL_SEND_SIZE', 'ELAPSED_TIME', undefined, undefined, 'LOCAL_SEND_THROUGHPUT', 'LOCAL_CPU_UTIL'];
const UDP_RECV_COLUMNS: Columns = ['RSR_SIZE', 'ELAPSED_TIME', undefined, 'REMOTE_RECV_THROUGHPUT', 'REMOTE_CPU_UTIL'];

function assign(fields: Record<string, string>, columns: Columns, tokens: readonly string[]): void {
  columns.forEach((name, index) => {
    const value = tokens[index];
    if (name !== undefined && value !== undefined) fields[name] = value;
  });
}

/**
 * Read netperf's classic (non-omni) table: a wrapped multi-line header, a
 * blank line, then one or two rows of numbers. Returns undefined when there is
 * no row of numbers to read.
 */
export function parseClassic(lines: readonly string[], from: number, test: NetperfTest, source?: string): ClassicTable | undefined {
  const first = lines.findIndex((line, index) => index >= from && !line.startsWith('!!!') && numericTokens(line) !== undefined);
  if (first < 0) return undefined;
  const tokens = numericTokens(lines[first] as string) as string[];
  const header = lines.slice(from, first).filter((line) => !line.startsWith('!!!'));
  const fields: Record<string, string> = {};

  if (isRequestResponse(test)) {
    if (!header.some((line) => /\bTrans\./.test(line))) {
      throw new ParseError(`no "Trans. Rate" column: this is not the classic output of ${test}`, source, first + 1);
    }
    requireColumns(tokens, 6, test, source, first);
    assign(fields, RR_COLUMNS, tokens);
    fields.THROUGHPUT_UNITS = 'Trans/s';
    const remote = numericTokens(lines[first + 1] ?? '');
    if (remote) assign(fields, ['RSS_SIZE', 'RSR_SIZE'], remote);
    readVerboseRr(lines, first + 1, fields);
  } else {
    const unit = header.flatMap((line) => line.trim().split(/\s+/)).find((token) => THROUGHPUT_UNIT_RE.test(token));
    if (!header.some((line) => /\bThroughput\b/.test(line))) {
      throw new ParseError(`no "Throughput" column: this is not the classic output of ${test}`, source, first + 1);
    }
    requireColumns(tokens, test === 'UDP_STREAM' ? 6 : 5, test, source, first);
    fields.THROUGHPUT_UNITS = unit ?? '10^6bits/s';
    if (test === 'UDP_STREAM') {
      assign(fields, UDP_SEND_COLUMNS, tokens);
      const received = numericTokens(lines[first + 1] ?? '');
      if (!received || received.length < 4) {
        throw new ParseError('classic UDP_STREAM output lacks the receiver row', source, first + 2);
      }
      assign(fields, UDP_RECV_COLUMNS, received);
      fields.THROUGHPUT = fields.REMOTE_RECV_THROUGHPUT as string;
    } else {
      assign(fields, test === 'TCP_MAERTS' ? MAERTS_COLUMNS : STREAM_COLUMNS, tokens);
    }
  }
  return { fields, line: first + 1 };
}

function requireColumns(tokens: readonly string[], minimum: number, test: NetperfTest, source: string | undefined, index: number): void {
  if (tokens.length < minimum) {
    throw new ParseError(`classic ${test} row has ${tokens.length} columns, expected at least ${minimum}`, source, index + 1);
  }
}

// `-v 2` adds a block whose "RoundTrip Latency usec/Tran" is the mean latency.
function readVerboseRr(lines: readonly string[], from: number, fields: Record<string, string>): void {
  const start = lines.findIndex((line, index) => index >= from && /^Alignment\s+Offset\s+RoundTrip/.test(line));
  if (start < 0) return;
  const row = lines
    .slice(start + 1)
    .map(numericTokens)
    .find((tokens) => tokens !== undefined);
  if (row && row.length >= 6) {
    fields.RT_LATENCY = row[4] as string;
    fields.TRANSACTION_RATE = row[5] as string;
  }
}
