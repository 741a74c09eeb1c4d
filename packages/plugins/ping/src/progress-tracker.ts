import type { Readable } from 'node:stream';

const SEQ_RE = /icmp_(?:seq|req)=(\d+)/;
const FLOOD_CHARS_RE = /^[.\b E]+$/;
const MIN_REPORT_GAP_MS = 250;

/**
 * Follows ping's output as it streams and reports how far the run is:
 * highest sequence number answered (or errored) over the count, or, in flood
 * mode where ping prints one `.` per request instead of lines, dots over count.
 * `onLine`, when given, sees every complete line as it arrives (live values).
 */
export function trackPingProgress(stream: Readable, count: number, report: (fraction: number, message: string) => void, onLine?: (line: string) => void): void {
  let pending = '';
  let highestSeq = 0;
  let dots = 0;
  let lastReport = 0;
  stream.on('data', (chunk: Buffer) => {
    const text = pending + chunk.toString();
    const lines = text.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      onLine?.(line);
      const match = SEQ_RE.exec(line);
      if (match) highestSeq = Math.max(highestSeq, Number(match[1]));
      else if (FLOOD_CHARS_RE.test(line)) dots += countDots(line);
    }
    // Flood dots arrive without a newline until the run ends: count them as they come.
    if (FLOOD_CHARS_RE.test(pending)) {
      dots += countDots(pending);
      pending = '';
    }
    const done = Math.max(highestSeq, dots);
    const now = Date.now();
    if (now - lastReport >= MIN_REPORT_GAP_MS) {
      lastReport = now;
      report(Math.min(1, done / count), `${Math.min(done, count)}/${count} requests`);
    }
  });
}

function countDots(text: string): number {
  let dots = 0;
  for (const char of text) if (char === '.') dots += 1;
  return dots;
}
