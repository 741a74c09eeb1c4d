import { readdirSync, readFileSync } from 'node:fs';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { NETPERF_TESTS } from '../tests.js';
import { parseNetperf } from './parse.js';
import { parseNetperfOutput } from './parse-netperf.js';

const dir = new URL('../__fixtures__/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), 'utf8');

/** Values of an -o fixture read straight from its text: header line zipped with the values line. */
function csvValues(name: string): Record<string, string> {
  const [, header = '', values = ''] = fixture(name).split('\n');
  // Only the last column (the command line) is quoted, so a plain split is right up to it.
  const titles = header.split(',');
  const cells = values.split(',');
  return Object.fromEntries(titles.slice(0, -1).map((title, i) => [title, cells[i] as string]));
}

/** Values of a -k fixture read straight from its text. */
function keyvalValues(name: string): Record<string, string> {
  return Object.fromEntries(
    fixture(name)
      .split('\n')
      .filter((line) => /^[A-Z_0-9]+=/.test(line))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );
}

const RR_TESTS = ['TCP_RR', 'TCP_CRR', 'UDP_RR'] as const;
const BULK_TESTS = ['TCP_STREAM', 'TCP_MAERTS', 'UDP_STREAM'] as const;

describe('omni -o CSV output (real fixtures)', () => {
  for (const test of RR_TESTS) {
    it(`reads ${test}`, () => {
      const name = `omni-csv-${test.toLowerCase()}.txt`;
      const text = csvValues(name);
      const result = parseNetperfOutput(fixture(name), { source: name });
      expect(result.test).toBe(test);
      expect(result.format).toBe('omni-csv');
      expect(result.rawThroughputUnits).toBe('Trans/s');
      expect(result.throughput).toBe(Number(text['Throughput']));
      expect(result.latency).toEqual({
        min: Number(text['Minimum Latency Microseconds']),
        mean: Number(text['Mean Latency Microseconds']),
        max: Number(text['Maximum Latency Microseconds']),
        stddev: Number(text['Stddev Latency Microseconds']),
        p50: Number(text['50th Percentile Latency Microseconds']),
        p90: Number(text['90th Percentile Latency Microseconds']),
        p99: Number(text['99th Percentile Latency Microseconds']),
      });
      expect(result.elapsedSeconds).toBe(Number(text['Elapsed Time (sec)']));
      expect(result.fields.REQUEST_SIZE).toBe('1');
      expect(result.fields.COMMAND_LINE).toMatch(new RegExp(`^netperf .* -t ${test} `));
      expect(result.confidence).toBeUndefined();
      expect(result.warnings).toEqual([]);
    });
  }

  for (const test of BULK_TESTS) {
    it(`reads ${test} in Mbit/s without latency`, () => {
      const name = `omni-csv-${test.toLowerCase()}.txt`;
      const text = csvValues(name);
      const result = parseNetperfOutput(fixture(name), { source: name });
      expect(result.test).toBe(test);
      expect(result.rawThroughputUnits).toBe('10^6bits/s');
      expect(result.throughput).toBe(Number(text['Throughput']));
      expect(result.latency).toEqual({});
    });
  }

  it('treats -1 ("not measured") as absent: UDP has no retransmissions or MSS', () => {
    const result = parseNetperfOutput(fixture('omni-csv-udp_rr.txt'));
    expect(result.localRetransmissions).toBeUndefined();
    expect(result.mss).toBeUndefined();
    const tcp = parseNetperfOutput(fixture('omni-csv-tcp_stream.txt'));
    expect(tcp.localRetransmissions).toBe(248);
    expect(tcp.remoteRetransmissions).toBe(0);
    expect(tcp.mss).toBe(1448);
  });

  it('UDP_STREAM throughput is what the receiver got, not what was sent', () => {
    const result = parseNetperfOutput(fixture('omni-csv-udp_stream.txt'));
    expect(result.throughput).toBe(2916.36);
    expect(result.fields.REMOTE_RECV_THROUGHPUT).toBe('2916.36');
    expect(result.fields.LOCAL_SEND_THROUGHPUT).toBe('3150.05');
  });

  it('reads sizes, nodelay and CPU utilisation runs', () => {
    const sizes = parseNetperfOutput(fixture('omni-csv-sizes-tcp_rr.txt'));
    expect([sizes.fields.REQUEST_SIZE, sizes.fields.RESPONSE_SIZE]).toEqual(['64', '1024']);
    expect(sizes.latency.p50).toBe(41);
    const stream = parseNetperfOutput(fixture('omni-csv-sizes-tcp_stream.txt'));
    expect(stream.fields.LOCAL_SEND_SIZE).toBe('8192');
    expect(stream.throughput).toBe(2733.68);
    const cpu = parseNetperfOutput(fixture('omni-csv-cpu-tcp_rr.txt'));
    expect([cpu.localCpuPercent, cpu.remoteCpuPercent, cpu.latency.p50]).toEqual([99, 99, 32]);
  });

  it('reads loopback output', () => {
    const result = parseNetperfOutput(fixture('loopback-omni-csv-tcp_rr.txt'));
    expect(result.throughput).toBe(25666.94);
    expect(result.latency.p99).toBe(65);
    expect(result.mss).toBe(32768);
  });
});

describe("PKB's omni -o selectors on UDP tests (real loopback outputs)", () => {
  it("UDP_RR and UDP_STREAM import with PKB's metrics and units", () => {
    const rr = parseNetperf(fixture('loopback-pkb-omni-csv-udp_rr.txt'), { source: 'rr.txt' });
    expect(rr.map((s) => `${s.metric} ${s.unit}`)).toEqual(
      expect.arrayContaining([
        'UDP_RR_Transaction_Rate transactions_per_second',
        'UDP_RR_Latency_p50 us',
        'UDP_RR_Latency_p99 us',
        'UDP_RR_Latency_min us',
        'UDP_RR_Latency_max us',
        'UDP_RR_Latency_stddev us',
      ]),
    );
    expect(rr.find((s) => s.metric === 'UDP_RR_Transaction_Rate')!.value).toBe(88827.79);
    const stream = parseNetperf(fixture('loopback-pkb-omni-csv-udp_stream.txt'), { source: 'stream.txt' });
    expect(stream.map((s) => [s.metric, s.value, s.unit])).toEqual([['UDP_STREAM_Throughput', 8698.1, 'Mbits/sec']]);
  });
});

describe('omni -k key=value output (real fixtures)', () => {
  for (const test of NETPERF_TESTS) {
    it(`reads ${test} like its -o twin`, () => {
      const name = `omni-keyval-${test.toLowerCase()}.txt`;
      const text = keyvalValues(name);
      const result = parseNetperfOutput(fixture(name), { source: name });
      expect(result.test).toBe(test);
      expect(result.format).toBe('omni-keyval');
      expect(result.throughput).toBe(Number(text.THROUGHPUT));
      expect(result.fields.COMMAND_LINE).toMatch(/^netperf /); // quotes removed
      if (RR_TESTS.includes(test as (typeof RR_TESTS)[number])) {
        expect(result.latency.p50).toBe(Number(text.P50_LATENCY));
        expect(result.latency.p99).toBe(Number(text.P99_LATENCY));
        expect(result.latency.mean).toBe(Number(text.MEAN_LATENCY));
      } else {
        expect(result.latency).toEqual({});
      }
    });
  }
});

describe('classic output (real fixtures)', () => {
  const cases: [string, string, number, number][] = [
    ['classic-tcp_rr.txt', 'TCP_RR', 25733.39, 1.0],
    ['classic-tcp_crr.txt', 'TCP_CRR', 5949.84, 1.0],
    ['classic-udp_rr.txt', 'UDP_RR', 23577.31, 1.0],
    ['classic-tcp_stream.txt', 'TCP_STREAM', 6354.75, 1.0],
    ['classic-tcp_maerts.txt', 'TCP_MAERTS', 6610.87, 1.0],
    ['classic-udp_stream.txt', 'UDP_STREAM', 3020.25, 1.0],
    ['loopback-classic-tcp_stream.txt', 'TCP_STREAM', 15485.16, 1.0],
  ];
  for (const [name, test, throughput, elapsed] of cases) {
    it(`reads ${name}`, () => {
      const result = parseNetperfOutput(fixture(name), { source: name });
      expect(result.test).toBe(test);
      expect(result.format).toBe('classic');
      expect(result.throughput).toBe(throughput);
      expect(result.elapsedSeconds).toBe(elapsed);
    });
  }

  it('reads the RR socket and message sizes', () => {
    const { fields } = parseNetperfOutput(fixture('classic-tcp_rr.txt'));
    expect(fields).toMatchObject({ LSS_SIZE: '16384', LSR_SIZE: '131072', REQUEST_SIZE: '1', RESPONSE_SIZE: '1', RSS_SIZE: '16384', RSR_SIZE: '131072' });
  });

  it('reads the sender and receiver rows of UDP_STREAM', () => {
    const { fields } = parseNetperfOutput(fixture('classic-udp_stream.txt'));
    expect(fields).toMatchObject({ LOCAL_SEND_SIZE: '65507', LOCAL_SEND_THROUGHPUT: '3060.07', REMOTE_RECV_THROUGHPUT: '3020.25' });
  });

  it('reads CPU utilisation columns (-c -C)', () => {
    const rr = parseNetperfOutput(fixture('classic-cpu-tcp_rr.txt'));
    expect([rr.throughput, rr.localCpuPercent, rr.remoteCpuPercent]).toEqual([21208.94, 55.93, 55.71]);
    const stream = parseNetperfOutput(fixture('classic-cpu-tcp_stream.txt'));
    expect([stream.throughput, stream.rawThroughputUnits, stream.localCpuPercent, stream.remoteCpuPercent]).toEqual([5078.64, '10^6bits/s', 75.25, 75.25]);
    const udp = parseNetperfOutput(fixture('classic-cpu-udp_stream.txt'));
    expect([udp.throughput, udp.localCpuPercent, udp.remoteCpuPercent]).toEqual([2563.8, 92.5, 92.5]);
  });

  it('reads the -v 2 round-trip latency block', () => {
    const result = parseNetperfOutput(fixture('classic-v2-tcp_rr.txt'));
    expect(result.throughput).toBe(28412.33);
    expect(result.fields.RT_LATENCY).toBe('35.196');
    expect(result.fields.TRANSACTION_RATE).toBe('28412.328');
  });
});

describe('confidence intervals (real fixtures)', () => {
  it('reads -o selectors of a run that missed its interval', () => {
    const result = parseNetperfOutput(fixture('confidence-csv-tcp_rr.txt'));
    expect(result.throughput).toBe(24797.01);
    expect(result.confidence).toEqual({ level: 99, targetWidthPercent: 5, widthPercent: 39.291, iterations: 10, achieved: false });
    expect(result.warnings.join('\n')).toMatch(/did not reach the 99% confidence interval of 5% in 10 iterations \(width 39.291%\)/);
    const stream = parseNetperfOutput(fixture('confidence-csv-tcp_stream.txt'));
    expect(stream.confidence).toMatchObject({ iterations: 10, widthPercent: 29.993, achieved: false });
  });

  it('reads the classic "!!! WARNING" block and the banner', () => {
    const result = parseNetperfOutput(fixture('confidence-classic-tcp_rr.txt'));
    expect(result.throughput).toBe(29342.06);
    expect(result.confidence).toEqual({ level: 99, targetWidthPercent: 5, widthPercent: 41.207, iterations: undefined, achieved: false });
    const stream = parseNetperfOutput(fixture('confidence-classic-tcp_stream.txt'));
    expect(stream.throughput).toBe(7575.45);
    expect(stream.confidence?.widthPercent).toBe(51.5);
  });

  it('marks an interval as achieved when its width is within the target', () => {
    const text = fixture('confidence-csv-tcp_rr.txt').replace(',99,5.000000,10,39.291,', ',99,5.000000,4,4.100,');
    expect(parseNetperfOutput(text).confidence).toMatchObject({ achieved: true, iterations: 4, widthPercent: 4.1 });
  });
});

describe('histogram (-v 2 on a build with --enable-histogram)', () => {
  it('keys buckets by their lower bound, as PKB does', () => {
    const result = parseNetperfOutput(fixture('handmade-histogram-tcp_rr.txt'));
    expect(result.throughput).toBe(27204.47);
    expect(result.histogram).toEqual([
      { lowerUs: 100, count: 433684 },
      { lowerUs: 200, count: 9696 },
      { lowerUs: 300, count: 872 },
      { lowerUs: 400, count: 140 },
      { lowerUs: 500, count: 56 },
      { lowerUs: 600, count: 27 },
      { lowerUs: 700, count: 28 },
      { lowerUs: 800, count: 17 },
      { lowerUs: 900, count: 10 },
      { lowerUs: 1000, count: 24 },
      { lowerUs: 2000, count: 57 },
      { lowerUs: 3000, count: 40 },
      { lowerUs: 4000, count: 5 },
      { lowerUs: 5000, count: 2 },
    ]);
    expect(result.histogram?.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(444658);
  });

  it('names the line of a malformed row', () => {
    const text = fixture('handmade-histogram-short-row.txt');
    const line = text.split('\n').findIndex((l) => l.startsWith('UNIT_MSEC')) + 1;
    expect(() => parseNetperfOutput(text, { source: 'h.txt' })).toThrow(new ParseError('histogram row UNIT_MSEC has 9 buckets, expected 10', 'h.txt', line));
  });

  it('has no histogram where Debian netperf printed none', () => {
    expect(parseNetperfOutput(fixture('classic-v2-tcp_rr.txt')).histogram).toBeUndefined();
  });
});

describe('netperf errors and broken output', () => {
  function parseError(text: string, source = 'raw.txt'): ParseError {
    try {
      parseNetperfOutput(text, { source, test: 'TCP_RR' });
    } catch (error) {
      expect(error).toBeInstanceOf(ParseError);
      return error as ParseError;
    }
    throw new Error('expected a ParseError');
  }

  it("names netperf's own message when no netserver listens", () => {
    const error = parseError(fixture('error-no-netserver.txt'), 'error-no-netserver.txt');
    expect(error.message).toMatch(/^error-no-netserver\.txt:1: netperf failed: establish control: are you sure there is a netserver listening on 10\.251\.9\.2 at port 20998\?/);
    expect(error.line).toBe(1);
  });

  it('reports an unknown test', () => {
    expect(parseError(fixture('error-unknown-test.txt')).message).toMatch(/TCP_BOGUS\) is unknown to this netperf/);
  });

  it('reports output that stops after the banner (netserver killed mid-test)', () => {
    expect(parseError(fixture('error-server-killed-tcp_rr.txt')).message).toMatch(/no netperf result found/);
  });

  it('tolerates the empty values netperf prints for selectors it does not know', () => {
    expect(parseNetperfOutput(fixture('error-bad-selector.txt')).throughput).toBe(32780.56);
  });

  it('warns that -w/-b were ignored by a build without intervals', () => {
    const result = parseNetperfOutput(fixture('interval-attempt-tcp_rr.txt'));
    expect(result.throughput).toBe(27691.35);
    expect(result.warnings).toEqual([
      'Packet rate control is not compiled into this netperf: the option was ignored',
      'Packet burst size is not compiled into this netperf: the option was ignored',
    ]);
  });

  it('needs the test name for output without a banner (-P 0)', () => {
    const text = fixture('omni-csv-tcp_rr.txt').split('\n').slice(1).join('\n');
    expect(() => parseNetperfOutput(text)).toThrow(/cannot tell which netperf test/);
    expect(parseNetperfOutput(text, { test: 'tcp_rr' }).latency.p50).toBe(34);
    expect(() => parseNetperfOutput(text, { test: 'SCTP_RR' })).toThrow(/unknown netperf test SCTP_RR/);
  });

  it('rejects a non-numeric throughput, naming its line', () => {
    const text = fixture('omni-csv-tcp_rr.txt').replace('27204.47,Trans/s', 'fast,Trans/s');
    const error = parseError(text);
    expect(error.message).toBe('raw.txt:3: no numeric throughput (got "fast")');
  });

  it('rejects an unknown throughput unit', () => {
    const text = fixture('omni-csv-tcp_stream.txt').replace('10^6bits/s', 'furlongs/s');
    expect(() => parseNetperfOutput(text)).toThrow(/unknown throughput unit "furlongs\/s"/);
  });

  it('rejects a classic table with too few columns', () => {
    const text = fixture('classic-tcp_rr.txt').replace('16384  131072 1        1       1.00     25733.39', '16384  131072 1');
    expect(() => parseNetperfOutput(text, { source: 'c.txt' })).toThrow(/^c\.txt:7: classic TCP_RR row has 3 columns/);
  });

  it('rejects classic STREAM output presented as an RR test', () => {
    const text = fixture('classic-tcp_stream.txt').split('\n').slice(1).join('\n');
    expect(() => parseNetperfOutput(text, { test: 'TCP_RR' })).toThrow(/no "Trans. Rate" column/);
  });

  it('rejects empty output and garbage', () => {
    expect(parseError('').message).toBe('raw.txt: empty output');
    expect(parseError('\u0000\u0001binary\u00ff garbage, 1,2,3\n==\n').message).toMatch(/no netperf result found/);
    expect(parseError('Throughput,Throughput Units\n').message).toMatch(/no netperf result found/);
  });

  it('never throws anything but ParseError on truncated or corrupted fixtures', () => {
    const names = readdirSync(dir).filter((name) => name.endsWith('.txt') && name !== 'COMMANDS.txt');
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      const text = fixture(name);
      const variants = [0.1, 0.33, 0.5, 0.77, 0.9].map((cut) => text.slice(0, Math.floor(text.length * cut)));
      variants.push(text.replace(/\d/g, 'x'), text.replace(/,/g, ';'), text.split('').reverse().join(''));
      for (const variant of variants) {
        try {
          parseNetperfOutput(variant, { source: name, test: 'TCP_RR' });
        } catch (error) {
          expect(error, `${name}: ${String(error)}`).toBeInstanceOf(ParseError);
        }
      }
    }
  });
});
