import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOmniCsv } from './parse-omni.js';

// A real `netperf -t TCP_RR -- -o …` output on loopback: its header line, then its values line.
const real = readFileSync(join(import.meta.dirname, '../__fixtures__/loopback-omni-csv-tcp_rr.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
const headerAt = real.findIndex((l) => /Throughput/.test(l) && !/^\d/.test(l));

/** `lines` as an array that counts how often its lines are read. */
function counted(lines: readonly string[]): { lines: string[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy([...lines], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { lines: proxy, reads: () => reads };
}

describe('omni CSV with repeated -o headers', () => {
  it('reads the values under the last header, reading each line a bounded number of times (was cubic: 1,000 headers took 106 s)', () => {
    const header = real[headerAt]!;
    const values = real[headerAt + 1]!;
    const plain = parseOmniCsv([header, values])!;
    for (const n of [10, 1000]) {
      const { lines, reads } = counted([...Array<string>(n).fill(header), values]);
      expect(parseOmniCsv(lines)).toEqual({ ...plain, line: n + 1 });
      // Linear: a few reads per line, whatever n (the old scan read ~n² lines, then joined n headers n times).
      expect(reads()).toBeLessThan(6 * (n + 1));
    }
  });
});
