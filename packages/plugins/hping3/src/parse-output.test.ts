import { readFileSync } from 'node:fs';
import { LatencyHistogram, ParseError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { hping3Samples } from './hping3-samples.js';
import { parseHping3Output } from './parse-output.js';
import { sniffHping3 } from './sniff.js';
import { hping3Argv } from './trial-settings.js';

// Real outputs, scripts/capture-fixtures.sh (hping3 3.0.0-alpha-2 between two namespaces).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const metric = (samples: ReturnType<typeof hping3Samples>, name: string) => samples.find((s) => s.metric === name)!;

describe('parseHping3Output', () => {
  it('SYN to a listening port: 100 SYN-ACKs, every RTT as printed (0.1 ms steps)', () => {
    const output = parseHping3Output(fixture('syn-open.txt'));
    expect(output).toMatchObject({ target: '10.213.77.2', flood: false, transmitted: 100, received: 100, lossPercent: 0 });
    expect(output.replies).toHaveLength(100);
    expect(new Set(output.replies.map((r) => r.flags))).toEqual(new Set(['SA']));
    for (const r of output.replies) expect(Math.round(r.rttMs * 10) / 10).toBe(r.rttMs);
    const samples = hping3Samples(output);
    expect(LatencyHistogram.decode(metric(samples, 'Average Latency').histogram!).count).toBe(100);
    expect(metric(samples, 'Min Latency').value).toBe(Math.min(...output.replies.map((r) => r.rttMs)));
    expect(metric(samples, 'Max Latency').value).toBe(output.summary!.max);
    expect(metric(samples, 'Latency p50').labels).toMatchObject({ rtt_resolution_ms: 0.1, destination: '10.213.77.2' });
    expect(metric(samples, 'Packets Received').labels).toMatchObject({ reply_flags: 'SA' });
  });

  it('SYN to a closed port: RSTs; every 4th SYN dropped: 25 % loss, the sequence numbers say which', () => {
    expect(new Set(parseHping3Output(fixture('syn-closed.txt')).replies.map((r) => r.flags))).toEqual(new Set(['RA']));
    const lossy = parseHping3Output(fixture('syn-loss-25.txt'));
    expect(lossy).toMatchObject({ transmitted: 100, received: 75, lossPercent: 25 });
    expect(lossy.replies.map((r) => r.seq).filter((s) => s % 4 === 0)).toEqual([]);
    expect(metric(hping3Samples(lossy), 'Packet Loss').value).toBe(25);
  });

  it("no reply: 100 % loss and no latency; -q: only the summary's min/avg/max", () => {
    const silent = hping3Samples(parseHping3Output(fixture('syn-silent.txt')));
    expect(metric(silent, 'Packet Loss').value).toBe(100);
    expect(silent.some((s) => s.metric === 'Average Latency')).toBe(false);
    const quiet = hping3Samples(parseHping3Output(fixture('syn-quiet.txt')));
    expect(metric(quiet, 'Average Latency')).toMatchObject({ value: 0.7 });
    expect(quiet.some((s) => s.metric === 'Latency p50')).toBe(false);
  });

  it('flood: packets sent; the rate only with the send time netbench measured', () => {
    const output = parseHping3Output(fixture('flood-2s.txt'));
    expect(output).toMatchObject({ flood: true, transmitted: 239980, received: 0 });
    expect(hping3Samples(output).map((s) => s.metric)).toEqual(['Packets Sent']);
    const samples = hping3Samples(output, {}, { seconds: 2, received: { device: 'eth0', packets: 239000 } });
    expect(metric(samples, 'Packet Rate').value).toBe(119990);
    expect(metric(samples, 'Received Packet Rate')).toMatchObject({ value: 119500, labels: { receiver_device: 'eth0' } });
  });

  it("refuses output cut before the statistics, hping3's own errors and text that is not hping3's", () => {
    const cut = fixture('syn-open.txt').split('\n--- ')[0]!;
    expect(() => parseHping3Output(cut, 'cut.txt')).toThrow(/cut\.txt:\d+: hping3 output without its statistics/);
    expect(() => parseHping3Output("[open_sockraw] socket(): Operation not permitted\n[main] can't open raw socket\n", 'e.txt')).toThrow(/e\.txt:1: hping3 said: \[open_sockraw\]/);
    expect(() => parseHping3Output('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.\n')).toThrow(ParseError);
    expect(sniffHping3(fixture('flood-2s.txt'))).toBe(true);
    expect(sniffHping3('PING 10.0.0.2 (10.0.0.2) 56(84) bytes of data.')).toBe(false);
  });

  it('argv: no shell, the target after --', () => {
    expect(hping3Argv({ mode: 'syn', port: 80, count: 5, interval: 1000 }, '10.0.0.2')).toEqual(['hping3', '-S', '-p', '80', '-c', '5', '-i', 'u1000', '--', '10.0.0.2']);
    expect(hping3Argv({ mode: 'flood', port: 9, duration: 3 }, '10.0.0.2')).toEqual(['timeout', '-s', 'INT', '3', 'hping3', '-S', '--flood', '-p', '9', '--', '10.0.0.2']);
    expect(() => hping3Argv({ mode: 'syn', port: 80 }, '-q')).toThrow();
  });
});
