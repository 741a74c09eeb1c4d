import { readdirSync, readFileSync } from 'node:fs';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import plugin from '../index.js';
import { sniffNetperf } from './sniff.js';

const dir = new URL('../__fixtures__/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, dir), 'utf8');
// Real stdout of `netperf -t UDP_RR -l 3 -- -o THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY` with netserver stopped (SIGSTOP) mid-test; exit 1.
const TIMED_OUT = [
  'MIGRATED UDP REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 10.213.61.2 () port 0 AF_INET : demo : first burst 0',
  'recv_response_timed_n: no response received. errno 4 counter 0',
  '',
].join('\n');

describe('sniffNetperf', () => {
  it('recognises every captured netperf output: classic, -o, -k, confidence, errors', () => {
    const outputs = readdirSync(dir).filter((f) => f.endsWith('.txt') && f !== 'COMMANDS.txt' && !f.endsWith('.stderr.txt') && f !== 'interval-probe-version.txt');
    expect(outputs.length).toBeGreaterThan(30);
    for (const name of outputs) expect(sniffNetperf(fixture(name)), name).toBe(true);
    expect(sniffNetperf(TIMED_OUT)).toBe(true);
  });

  it('recognises -P 0 CSV (no banner) by its header line', () => {
    expect(sniffNetperf(fixture('omni-csv-tcp_rr.txt').split('\n').slice(1).join('\n'))).toBe(true);
  });

  it('leaves other tools alone', () => {
    expect(sniffNetperf('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n')).toBe(false);
    expect(sniffNetperf('tcp connect failed: Connection refused\nClient connecting to 127.0.0.1, TCP port 5599\n')).toBe(false);
    expect(sniffNetperf('Connecting to host 10.0.0.2, port 5201\n[  5] local 10.0.0.1 port 1 connected to 10.0.0.2 port 5201\n')).toBe(false);
  });
});

describe('netperf parse for import', () => {
  it('names the file and line of recv_response_timed_n: no response received, never a crash', () => {
    let error: unknown;
    try {
      plugin.parse(TIMED_OUT, { source: 'udp_rr.txt' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ParseError);
    expect((error as Error).message).toMatch(/^udp_rr\.txt:2: netperf failed: recv_response_timed_n: no response received\. errno 4 counter 0 \(/);
  });

  it("labels samples with the test the banner names, and with the caller's for -P 0 CSV", () => {
    expect(plugin.parse(fixture('classic-tcp_stream.txt'))[0]!.labels).toMatchObject({ test: 'TCP_STREAM' });
    const noBanner = fixture('omni-csv-udp_rr.txt').split('\n').slice(1).join('\n');
    expect(plugin.parse(noBanner, { test: 'udp_rr' })[0]!.labels).toMatchObject({ test: 'UDP_RR' });
  });
});
