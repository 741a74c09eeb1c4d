import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Host, ServerHandle, ToolInfo, TrialRun } from '@netbench/plugin-api';
import { NetbenchError, processHost, RetryableError, type SampleInput, ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { labTrial, type TestTrialContext, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import netperf from './index.js';
import { NetserverPool } from './netserver-pool.js';
import { NetserverHandle } from './serve.js';
import type { TrialParams } from './trials.js';

// Two namespaces joined by a veth pair (the kit's twoHostLab); all traffic stays between them.
let lab: TwoHostLab;
const sh = (...argv: string[]) => execFileSync(argv[0] as string, argv.slice(1), { encoding: 'utf8' });
const listening = (name: string) => sh('ip', 'netns', 'exec', name, 'ss', '-Hltn').trim();

let client: Host;
let server: Host;

// The context for check, serve and install; each trial gets a fresh one (removed in afterAll).
const base = testTrialContext(60_000);
const context = () => base.ctx;
const contexts: TestTrialContext[] = [base];
function trialContext(): TestTrialContext {
  const t = testTrialContext(60_000);
  contexts.push(t);
  return t;
}
/** The raw outputs a trial saved, in order. */
const raws = (t: TestTrialContext) => [...t.saved.values()];

let clientInfo: ToolInfo;
let serverInfo: ToolInfo;
let handle: ServerHandle;

/** A trial of the block with the checks done once above, on the shared netservers unless `serverHandle` says otherwise (`{}`: none). */
const trial = (block: Record<string, unknown>, { serverHandle }: { serverHandle?: ServerHandle } = { serverHandle: handle }): Promise<TrialRun<TrialParams>> =>
  labTrial(netperf, lab, block, { clientInfo, serverInfo, serverHandle });

const metric = (samples: readonly SampleInput[], name: string, stream?: number) => samples.filter((s) => s.metric === name && s.labels?.stream === stream);

beforeAll(async () => {
  // 10.251.11.0/24: a test below matches netperf's message naming the server's address.
  lab = await twoHostLab({ tag: 'netperf', subnet: '10.251.11' });
  ({ client, server } = lab);
});

afterAll(async () => {
  await handle?.stop();
  await lab?.close();
  for (const t of contexts) t.dispose();
});

describe('netperf plugin between two namespaces', () => {
  it("check finds Debian's build and what it lacks", async () => {
    clientInfo = await netperf.check(client, context());
    serverInfo = await netperf.check(server, context());
    expect(clientInfo.version).toBe('2.7.0');
    expect(clientInfo.features).toMatchObject({ intervals: false, burst: false, histogram: false, demo: true, spin: false });
    // The self-test's netserver is gone again.
    expect(lab.pids(lab.clientNs)).toEqual([]);
  });

  it('reports a missing netperf as ToolMissingError', async () => {
    const bare = processHost({ id: 'bare', name: 'bare', cloud: 'local', internalIp: lab.clientIp, prefix: ['ip', 'netns', 'exec', lab.clientNs, 'env', 'PATH=/nonexistent'] });
    await expect(netperf.check(bare, context())).rejects.toBeInstanceOf(ToolMissingError);
  });

  it('serve starts netserver on control port 20000 and waits until it accepts', async () => {
    handle = await netperf.serve!(server, serverInfo, context());
    expect(handle.data).toEqual({ basePort: 20000, ports: [{ control: 20000, data: 20001 }] });
    expect(listening(lab.serverNs)).toMatch(/0\.0\.0\.0:20000\b/);
  });

  it('detects interval pacing as the binary really behaves', () => {
    // 1 transaction per 10 ms caps a paced TCP_RR at ~100/s; a build without intervals says so and runs flat out.
    const out = sh(
      'ip',
      'netns',
      'exec',
      lab.clientNs,
      'netperf',
      '-H',
      lab.serverIp,
      '-p',
      '20000',
      '-t',
      'TCP_RR',
      '-l',
      '1',
      '-w',
      '10ms',
      '-b',
      '1',
      '--',
      '-P',
      ',20001',
      '-o',
      'THROUGHPUT',
    );
    const rate = Number(out.trim().split('\n').at(-1));
    expect(/Packet rate control is not compiled in/.test(out)).toBe(!clientInfo.features.intervals);
    expect(rate > 300).toBe(!clientInfo.features.intervals);
  });

  it('runs TCP_RR: latency in microseconds, raw output kept, progress to 1', async () => {
    const t = trialContext();
    const { samples } = await netperf.run(await trial({ tests: ['TCP_RR'], duration: 1 }), t.ctx);
    const [p50] = metric(samples, 'TCP_RR_Latency_p50');
    expect(p50?.unit).toBe('us');
    expect(p50?.value).toBeGreaterThanOrEqual(1);
    expect(p50?.value).toBeLessThanOrEqual(5000);
    expect(metric(samples, 'TCP_RR_Transaction_Rate')[0]?.value).toBeGreaterThan(100);
    expect(p50?.labels).toMatchObject({ netperf_test_length: 1, max_iter: 1, sending_thread_count: 1, transport_mss: 1448 });
    // What each end's socket used, as netperf reports it (LOCAL_/REMOTE_CONG_CONTROL).
    expect(p50?.labels?.client_cc).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(p50?.labels?.server_cc).toBe(p50?.labels?.client_cc);
    expect(raws(t)).toHaveLength(1);
    const raw = readFileSync(raws(t)[0] as string, 'utf8');
    expect(raw).toMatch(/^MIGRATED TCP REQUEST\/RESPONSE TEST .* port 20001 AF_INET/);
    expect(netperf.parse(raw)).toEqual(
      samples.map(({ labels, ...rest }) => ({
        ...rest,
        labels: {
          transport_mss: 1448,
          client_cc: ccOf(labels),
          server_cc: ccOf(labels),
          test: 'TCP_RR',
          ...(rest.metric === 'TCP_RR_Packet_Rate' ? { packets_per_transaction: 2 } : {}),
        },
      })),
    );
    expect(t.progress[0]?.fraction).toBe(0);
    expect(t.progress.at(-1)?.fraction).toBe(1);
  });

  it('runs TCP_STREAM above 100 Mbit/s', async () => {
    const { ctx } = trialContext();
    const { samples } = await netperf.run(await trial({ tests: ['TCP_STREAM'], duration: 1 }), ctx);
    const [throughput] = metric(samples, 'TCP_STREAM_Throughput');
    expect(throughput?.unit).toBe('Mbits/sec');
    expect(throughput?.value).toBeGreaterThan(100);
  });

  it('runs 4 streams at once, one netserver each, and aggregates them', async () => {
    const t = trialContext();
    const { samples } = await netperf.run(await trial({ tests: ['TCP_RR'], duration: 1, streams: 4 }), t.ctx);
    expect(handle.data.ports).toHaveLength(4);
    expect(raws(t)).toHaveLength(4);
    const dataPorts = raws(t).map((path) => /-P ,(\d+)/.exec(readFileSync(path, 'utf8'))?.[1]);
    expect(new Set(dataPorts)).toEqual(new Set(['20001', '20003', '20005', '20007']));
    const rates = [0, 1, 2, 3].map((stream) => metric(samples, 'TCP_RR_Transaction_Rate', stream)[0]?.value ?? NaN);
    expect(rates.every((rate) => rate > 100)).toBe(true);
    const [total] = metric(samples, 'TCP_RR_Throughput_total');
    expect(total?.value).toBeCloseTo(
      rates.reduce((a, b) => a + b, 0),
      6,
    );
    expect(total?.unit).toBe('transactions_per_second');
    const [p99] = metric(samples, 'TCP_RR_Latency_p99');
    const streamP99s = [0, 1, 2, 3].map((stream) => metric(samples, 'TCP_RR_Latency_p99', stream)[0]?.value ?? NaN);
    expect(p99?.labels?.aggregation).toBe('interpolated_cdf');
    expect(p99?.value).toBeGreaterThanOrEqual(Math.min(...streamP99s));
    expect(p99?.value).toBeLessThanOrEqual(Math.max(...streamP99s));
  });

  it('gives concurrent trials disjoint netservers', async () => {
    const [one, two] = [trialContext(), trialContext()];
    // (UDP_RR and TCP_CRR would add netserver's 4 s end-of-test padding.)
    const [rr, stream] = await Promise.all([trial({ tests: ['TCP_RR'], duration: 1, streams: 2 }), trial({ tests: ['TCP_STREAM'], duration: 1, streams: 3 })]);
    await Promise.all([netperf.run(rr, one.ctx), netperf.run(stream, two.ctx)]);
    const ports = [...raws(one), ...raws(two)].map((path) => /-p (\d+)/.exec(readFileSync(path, 'utf8'))?.[1]);
    expect(new Set(ports).size).toBe(5);
  });

  it('refuses interval pacing on this build with UnsupportedError', async () => {
    const t = trialContext();
    const run = netperf.run(await trial({ tests: ['TCP_RR'], duration: 1, interval: { waitMs: 10 } }), t.ctx);
    await expect(run).rejects.toBeInstanceOf(UnsupportedError);
    await expect(run).rejects.toThrow(/lacks interval pacing.*--enable-intervals/);
    expect(t.saved.size).toBe(0);
  });

  it('refuses the printed histogram on this build', async () => {
    const { ctx } = trialContext();
    await expect(netperf.run(await trial({ tests: ['TCP_RR'], duration: 1, histogram: true }), ctx)).rejects.toThrow(/--enable-histogram/);
  });

  it('turns "no netserver listening" into a RetryableError, keeping the raw output', async () => {
    // A pool whose netserver listens on the client's loopback: the server address has none on that port.
    const elsewhere = new NetserverPool(client, { basePort: 20500, family: ['-L', '127.0.0.1'] });
    const t = trialContext();
    try {
      const run = netperf.run(await trial({ tests: ['TCP_RR'], duration: 1 }, { serverHandle: new NetserverHandle(elsewhere, 'elsewhere') }), t.ctx);
      await expect(run).rejects.toBeInstanceOf(RetryableError);
      await expect(run).rejects.toThrow(/establish control: are you sure there is a netserver listening on 10\.251\.11\.2 at port 20500/);
      expect(readFileSync(raws(t)[0] as string, 'utf8')).toMatch(/establish control/);
    } finally {
      await elsewhere.stop();
    }
  });

  it('kills netperf promptly on abort', async () => {
    const t = trialContext();
    const started = Date.now();
    const run = netperf.run(await trial({ tests: ['TCP_STREAM'], duration: 30, streams: 2 }), t.ctx);
    setTimeout(() => t.controller.abort(new NetbenchError('stop')), 1500);
    await expect(run).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(lab.pids(lab.clientNs)).toEqual([]);
  });

  it('stop leaves no netserver behind, and may be called again', async () => {
    expect(lab.pids(lab.serverNs).length).toBeGreaterThanOrEqual(5);
    await handle.stop();
    await handle.stop();
    expect(lab.pids(lab.serverNs)).toEqual([]);
    expect(listening(lab.serverNs)).toBe('');
  });

  it('runs without serve by bringing its own netservers', async () => {
    const { ctx } = trialContext();
    const { samples } = await netperf.run(await trial({ tests: ['UDP_STREAM'], duration: 1 }, {}), ctx);
    expect(metric(samples, 'UDP_STREAM_Throughput')[0]?.value).toBeGreaterThan(10);
    expect(lab.pids(lab.serverNs)).toEqual([]);
  });

  it('install is a no-op where netperf is installed', async () => {
    await netperf.install!(client, context());
    expect((await netperf.check(client, context())).version).toBe('2.7.0');
  }, 180_000);
});

function ccOf(labels: Readonly<Record<string, unknown>> | undefined): string {
  return String(labels?.client_cc);
}
