import type { SampleInput } from '@netbench/plugin-api';
import { MBPS, TRANSACTIONS_PER_SECOND } from './samples/units.js';
import { isRequestResponse, type NetperfTest } from './tests.js';

/** A demo-mode (`-D`) interim line under `-o`: `value,units,interval seconds,end (epoch seconds)`. */
export const INTERIM_RE = /^(\d+(?:\.\d+)?),(Trans\/s|10\^6bits\/s),(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/;

/**
 * The interval sample of one interim line, or `undefined` for any other
 * line. Stamped `receivedAt` (the controller's clock, shared by all flows);
 * netperf's own end time (the client's clock) is kept as a label.
 */
export function interimSample(line: string, test: NetperfTest, stream: number, receivedAt: number): SampleInput | undefined {
  const match = INTERIM_RE.exec(line.trim());
  if (!match) return undefined;
  const [, value, units, seconds, end] = match;
  const rr = isRequestResponse(test);
  if (rr !== (units === 'Trans/s')) return undefined;
  return {
    metric: rr ? `${test}_Transaction_Rate` : `${test}_Throughput`,
    value: Number(value),
    unit: rr ? TRANSACTIONS_PER_SECOND : MBPS,
    timestamp: receivedAt,
    labels: { stream, interval_seconds: Number(seconds), client_clock_end: Number(end) },
  };
}

/**
 * Interim lines of one ordinary trial's stream as live values: the interval
 * sample of each (`interimSample`), plus `interval_start`/`interval_end` in
 * seconds since netperf started (for a time series); the `stream` label only
 * when the trial has several.
 */
export class LiveInterims {
  private previousEnd = 0;

  constructor(
    private readonly test: NetperfTest,
    private readonly stream: number | undefined,
    private readonly startedAt: number,
  ) {}

  sample(line: string, receivedAt: number): SampleInput | undefined {
    const sample = interimSample(line, this.test, this.stream ?? 0, receivedAt);
    if (!sample) return undefined;
    const { stream: _stream, ...labels } = sample.labels ?? {};
    const end = Math.max(this.previousEnd, Math.round(receivedAt - this.startedAt) / 1000);
    const start = this.previousEnd;
    this.previousEnd = end;
    return { ...sample, labels: { ...labels, ...(this.stream === undefined ? {} : { stream: this.stream }), interval_start: start, interval_end: end } };
  }
}

/** Calls `onLine` for every complete line of a byte stream. */
export function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = '';
  stream.on('data', (chunk: Buffer | string) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}
