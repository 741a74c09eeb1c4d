import { CSV_HEADER_SELECTORS } from '../selectors.js';
import { splitCsvLine } from './csv-line.js';

// "MIGRATED TCP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to ..." (any test, not only the six run here).
const BANNER_RE = /^(?:MIGRATED )?[A-Z].* TEST from \S+ .* to /;
const KEYVAL_RE = /^THROUGHPUT=/;
// Messages only netperf prints, so an output that is nothing but a failure is still recognised as netperf's.
const NETPERF_ONLY_RE =
  /^(?:establish control: are you sure there is a netserver|establish_control could not establish|recv_response(?:_timed(?:_n)?)?: |The test you requested \(.*\) is unknown to this netperf|netperf: )/;
const HEAD_LINES = 40;

/** Whether a file's head is netperf output (classic, `-o` CSV, `-k`, or one of its errors), for `netbench import --tool auto`. */
export function sniffNetperf(head: string): boolean {
  const lines = head.split('\n', HEAD_LINES).map((line) => line.trim());
  return lines.some((line) => BANNER_RE.test(line) || KEYVAL_RE.test(line) || NETPERF_ONLY_RE.test(line) || isCsvHeader(line));
}

/** A `-o` header line: its first title is one netperf prints for a selector (`-P 0` outputs start with it). */
function isCsvHeader(line: string): boolean {
  if (!line.includes(',') && !(line in CSV_HEADER_SELECTORS)) return false;
  const first = splitCsvLine(line)[0]?.trim();
  return first !== undefined && first in CSV_HEADER_SELECTORS && first !== '';
}
