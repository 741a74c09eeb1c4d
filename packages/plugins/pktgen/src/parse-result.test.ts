import { readFileSync } from 'node:fs';
import { ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { parsePktgenResult } from './parse-result.js';
import { pktgenSamples } from './pktgen-samples.js';
import { interfaceWithAddress, receivedBetween } from './receiver.js';
import { pktgenSchema } from './schema.js';
import { sniffPktgen } from './sniff.js';
import { deviceCommands } from './trial-settings.js';
import { pktgenTrials } from './trials.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('parsePktgenResult (real device files, __fixtures__/COMMANDS.txt)', () => {
  it('an unpaced run over a veth: packets, rate, bits, time, errors', () => {
    expect(parsePktgenResult(fixture('veth-unpaced.txt'))).toEqual({
      device: 'va',
      count: 100000,
      size: 60,
      destination: '10.9.0.2',
      delayNs: 0,
      packets: 100000,
      errors: 0,
      elapsedUs: 5098028,
      idleUs: 32249,
      pps: 19615,
      bitsPerSecond: 9415200,
    });
  });

  it('a paced run: ratep 20000 is a delay of 50000 ns', () => {
    const result = parsePktgenResult(fixture('veth-ratep-20000.txt'));
    expect(result).toMatchObject({ delayNs: 50000, packets: 100000, pps: 15090 });
    // pktgen's own figures agree: packets over elapsed time, bits at pkt_size bytes.
    expect(result.packets / (result.elapsedUs / 1e6)).toBeCloseTo(result.pps, -1);
    expect(result.bitsPerSecond).toBe(result.pps * result.size * 8);
  });

  it("refuses a device file that never ran, naming what pktgen said, and text that is not pktgen's", () => {
    // Configured (count 1000) but never started: pktgen says "Result: OK: count=1000", which is no measurement.
    expect(() => parsePktgenResult(fixture('configured-not-started.txt'), 'c.txt')).toThrow(/c\.txt:19: pktgen has no result: "Result: OK: count=1000"/);
    expect(() => parsePktgenResult(fixture('refused-command.txt'), 'r.txt')).toThrow(/pktgen has no result: "Result: No such parameter "bogus""/);
    expect(() => parsePktgenResult('hello\n', 'x.txt')).toThrow(ParseError);
    expect(sniffPktgen(fixture('veth-unpaced.txt'))).toBe(true);
    expect(sniffPktgen('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.')).toBe(false);
  });

  it('samples: sender figures; with a receiver count, what arrived and the loss', () => {
    const result = parsePktgenResult(fixture('veth-unpaced.txt'));
    const samples = pktgenSamples(result, { device: 'eth0', packets: 99_000, dropped: 3 });
    const by = (metric: string) => samples.find((s) => s.metric === metric)!;
    expect(by('Packet Rate')).toMatchObject({ value: 19615, unit: 'packets/s', labels: { size: 60, device: 'va', destination: '10.9.0.2' } });
    expect(by('Throughput').value).toBeCloseTo(9.4152, 4);
    expect(by('Packets Received')).toMatchObject({ value: 99_000, labels: { receiver_device: 'eth0' } });
    expect(by('Received Packet Rate').value).toBeCloseTo(99_000 / 5.098028, 3);
    expect(by('Packet Loss').value).toBeCloseTo(1, 6);
    expect(by('Receiver Drops').value).toBe(3);
    expect(pktgenSamples(result).some((s) => s.metric === 'Packets Received')).toBe(false);
  });
});

describe('receiver counters', () => {
  const before =
    'Inter-|   Receive                                                |  Transmit\n face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n    vb:     908      12    0    0    0     0          0         0      908      12    0    0    0     0       0          0\n';
  const after = before.replace('    vb:     908      12    0    0', '    vb: 6000908  100012    0    7');
  it('the interface holding the address, and its rx packets and drops between two readings', () => {
    const addrs =
      '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n2: vb    inet 10.9.0.2/24 scope global vb\\       valid_lft forever preferred_lft forever\n2: vb    inet6 fe80::1/64 scope link \\       valid_lft forever preferred_lft forever\n';
    expect(interfaceWithAddress(addrs, '10.9.0.2')).toBe('vb');
    expect(interfaceWithAddress(addrs, '10.9.0.3')).toBeUndefined();
    expect(receivedBetween(before, after, 'vb')).toEqual({ device: 'vb', packets: 100000, dropped: 7 });
    expect(receivedBetween(before, after, 'eth9')).toBeUndefined();
  });
});

describe('trials and the pktgen writes', () => {
  it('integers from the schema only, one write each; unpaced is delay 0', () => {
    const [trial] = pktgenTrials(pktgenSchema.parse({ count: 5000, rate: 1000 }));
    expect(trial).toMatchObject({ test: 'udp_pps', estimatedSeconds: 5, params: { count: 5000, size: 60, rate: 1000, cpu_client: 0, port: 9 } });
    expect(deviceCommands(trial!.params, '10.0.0.2', '02:00:00:00:00:01')).toEqual([
      'count 5000',
      'clone_skb 0',
      'pkt_size 60',
      'ratep 1000',
      'dst 10.0.0.2',
      'dst_mac 02:00:00:00:00:01',
      'udp_dst_min 9',
      'udp_dst_max 9',
    ]);
    const [unpaced] = pktgenTrials(pktgenSchema.parse({}));
    expect(deviceCommands(unpaced!.params, '10.0.0.2', '02:00:00:00:00:01')).toContain('delay 0');
  });
});
