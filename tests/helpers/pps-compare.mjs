// One client × N servers, UDP_RR with a burst, on lab namespaces: the
// aggregate packet rate netbench's synchronized flows report, and the sum of
// the same netperf commands started together by hand on the same namespaces
// (rounds interleaved hand, netbench, hand, netbench, ..., hand, and each
// side's median compared, so drift and other load on a busy machine favour
// neither). Shared by tests/flows-pps.test.ts and bench/pps.bench.mjs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlan, loadSpec, runPlan, staticRegistry } from '@netbench/core';
import { definePlugin, newRunId, z } from '@netbench/plugin-api';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { localPlugin } from '@netbench/plugin-local';
import { netperfPlugin } from '@netbench/plugin-netperf';

const CONTROL_PORT = 12865;

/** Run a command in a namespace; resolves with its output once it exits. */
function inNetns(netns, argv) {
  const child = spawn('ip', ['netns', 'exec', netns, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, exited };
}

/** netperf by hand: one netserver per server, then the N clients launched back to back, as `cmd & cmd & cmd` would. */
async function byHand(client, servers, { duration, burst }) {
  const netservers = servers.map((s) => inNetns(s.labels.netns, ['netserver', '-D', '-4', '-p', String(CONTROL_PORT)]));
  try {
    await new Promise((r) => setTimeout(r, 500));
    // The command netbench runs for a flow (-j and demo mode included), so only the mechanism differs.
    const runs = servers.map((s) =>
      inNetns(client.labels.netns, [
        'netperf',
        '-p',
        String(CONTROL_PORT),
        '-t',
        'UDP_RR',
        '-H',
        s.internalIp,
        '-l',
        String(duration),
        '-j',
        '-D',
        '1',
        '--',
        '-r',
        '1,1',
        '-b',
        String(burst),
        '-o',
        'P50_LATENCY,MEAN_LATENCY,THROUGHPUT',
      ]),
    );
    const outs = await Promise.all(runs.map((r) => r.exited));
    const rates = outs.map((o) => {
      const value = Number(o.stdout.trim().split('\n').at(-1).split(',').at(-1));
      if (o.code !== 0 || !Number.isFinite(value)) throw new Error(`netperf by hand failed (${o.code}): ${o.stdout}${o.stderr}`);
      return value;
    });
    return { rates, transactions: rates.reduce((a, b) => a + b, 0) };
  } finally {
    for (const n of netservers) n.child.kill('SIGTERM');
    await Promise.all(netservers.map((n) => n.exited));
  }
}

/** A cloud that hands out hosts provisioned beforehand, so the engine measures on the very namespaces used by hand. */
function reuseCloud(hosts) {
  return definePlugin({
    kind: 'cloud',
    name: 'reuse',
    hostSchema: z.strictObject({}),
    async provision(requests) {
      return requests.map((request) => ({ ...hosts.get(request.name), id: request.id, name: request.name }));
    },
    async teardown() {},
  });
}

export async function comparePps({ servers = 3, duration = 3, burst = 8, rounds = 2 } = {}) {
  // A run id of netbench's own form: the lab deletes only namespaces named after one.
  const runId = newRunId();
  const runDir = mkdtempSync(join(tmpdir(), 'nb-pps-'));
  const ledger = new MemoryLedger(runId, 'local');
  // The runs are stored in the comparison's own folder, never the user's ~/.netbench.
  const savedDb = process.env.NETBENCH_DB;
  process.env.NETBENCH_DB = join(runDir, 'netbench.db');
  const ctx = { runId, runDir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} }, ledger };
  const names = ['client', ...Array.from({ length: servers }, (_, i) => `server_${i + 1}`)];
  try {
    const hosts = await localPlugin.provision(
      names.map((name) => ({ id: name, name, cloud: 'local', config: {} })),
      ctx,
    );
    const byName = new Map(hosts.map((h) => [h.name, h]));
    if (hosts[0].labels.isolation !== 'netns') throw new Error('needs root: the lab fell back to loopback');
    const client = byName.get('client');
    const serverHosts = names.slice(1).map((n) => byName.get(n));

    const text = [
      'name: pps-compare',
      'hosts:',
      ...names.map((n) => `  ${n}: { cloud: reuse }`),
      'benchmarks:',
      `  - { tool: netperf, flows: { topology: one-to-many, client: client, servers: [${names.slice(1).join(', ')}] }, tests: [UDP_RR], requestSize: 1, responseSize: 1, burst: ${burst}, duration: ${duration} }`,
      `options: { retries: 0, runsDir: ${join(runDir, 'runs')} }`,
    ].join('\n');
    const registry = staticRegistry([reuseCloud(byName), netperfPlugin]);
    const { spec } = await loadSpec({ text, file: join(runDir, 'pps.yaml') }, registry);
    const planned = await createPlan(spec, registry);
    const plan = { ...planned, spec: { ...planned.spec, publish: [] } };

    const hand = [await byHand(client, serverHosts, { duration, burst })];
    const runs = [];
    for (let round = 0; round < rounds; round += 1) {
      const outcome = await runPlan(plan, { registry, netbenchVersion: 'test' });
      const aggregate = (metric) => outcome.samples.find((s) => s.metric === metric && s.labels.flow === 'aggregate');
      runs.push({
        status: outcome.record.status,
        error: outcome.record.trials[0]?.error,
        transactions: aggregate('UDP_RR_Transaction_Rate')?.value,
        packets: aggregate('UDP_RR_Packet_Rate')?.value,
        skewMs: aggregate('flow_start_skew')?.value,
        flows: outcome.samples.filter((s) => s.metric === 'UDP_RR_Transaction_Rate' && s.labels.flow !== 'aggregate' && s.labels.series === undefined).map((s) => s.value),
        intervals: outcome.samples.filter((s) => s.labels.series === 'interval').length,
      });
      hand.push(await byHand(client, serverHosts, { duration, burst }));
    }
    return {
      netbench: { transactions: median(runs.map((r) => r.transactions ?? NaN)), runs },
      byHand: { transactions: median(hand.map((h) => h.transactions)), runs: hand },
    };
  } finally {
    for (const resource of ledger.pending()) await localPlugin.teardown(resource, ctx).catch(() => {});
    if (savedDb === undefined) delete process.env.NETBENCH_DB;
    else process.env.NETBENCH_DB = savedDb;
    rmSync(runDir, { recursive: true, force: true });
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
