// Latency under load, side by side with flent: on two lab
// namespaces joined by a tbf-shaped link, flent's test and netbench's
// `tool: load` test of the same name run back to back on the very same
// namespaces, link and congestion control. Both are reduced the same way:
// total goodput over the load phase, and latency percentiles of the ICMP
// probes in the loaded window (from 1 s after the load started to its end)
// and the idle windows (before the load, and from 1 s after it to the end).
// Shared by tests/latency-under-load.test.ts and bench/latency-under-load.bench.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createPlan, loadSpec, runPlan, staticRegistry } from '@netbench/core';
import { definePlugin, z } from '@netbench/plugin-api';
import { MemoryLedger } from '@netbench/plugin-api/testing';
import { hubName, localPlugin } from '@netbench/plugin-local';
import { netperfPlugin } from '@netbench/plugin-netperf';
import { pingPlugin } from '@netbench/plugin-ping';

const FLENT_PORT = 12865;
const RATE_BITS = 100_000_000;

function must(argv) {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Whether this machine can run the comparison: root, namespaces, tbf, flent, netperf and cubic. */
export function canCompare() {
  if (process.getuid?.() !== 0) return 'needs root';
  for (const tool of ['flent', 'netperf', 'netserver', 'ping', 'tc']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  const available = readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8');
  if (!available.split(/\s+/).includes('cubic')) return 'the kernel has no cubic congestion control';
  return undefined;
}

/**
 * Let namespaces choose cubic: add it to the root namespace's allowed list
 * (a namespace may only pick an allowed algorithm). Returns an undo.
 */
export function allowCubic() {
  const file = '/proc/sys/net/ipv4/tcp_allowed_congestion_control';
  const before = readFileSync(file, 'utf8').trim();
  if (before.split(/\s+/).includes('cubic')) return () => {};
  must(['sysctl', '-q', '-w', `net.ipv4.tcp_allowed_congestion_control=${before} cubic`]);
  return () => spawnSync('sysctl', ['-q', '-w', `net.ipv4.tcp_allowed_congestion_control=${before}`]);
}

/** Congestion control of a namespace (per network namespace since Linux 4.15). */
export function setCongestionControl(netns, algorithm) {
  must(['ip', 'netns', 'exec', netns, 'sysctl', '-q', '-w', `net.ipv4.tcp_congestion_control=${algorithm}`]);
}

/**
 * The lab bridge's port toward a namespace (the bridge's end of its veth
 * pair, in the lab's hub namespace), from eth0's peer index. Only a lab veth
 * name is accepted: an index looked up in the wrong namespace names some
 * other interface.
 */
export function bridgePort(netns, hub) {
  const m = /eth0@if(\d+)/.exec(must(['ip', '-n', netns, '-o', 'link', 'show', 'eth0']));
  if (!m) throw new Error(`no veth peer for eth0 in ${netns}`);
  const line = must(['ip', '-n', hub, '-o', 'link'])
    .split('\n')
    .find((l) => l.startsWith(`${m[1]}: `));
  const name = line?.split(': ')[1].split('@')[0];
  if (!name || !/^nb[a-z0-9]{6}h\d+$/.test(name)) throw new Error(`no lab veth with index ${m[1]} in ${hub} (found ${name ?? 'nothing'})`);
  return name;
}

/**
 * The queue toward a namespace: tbf at 100 Mbit/s with `queueMs` of queue
 * (tbf `latency`) on the bridge's port toward it, replacing what is there.
 * On the bridge port, not the sender's own eth0: a sender's own qdisc is
 * kept short by TCP Small Queues (about a millisecond of data per socket),
 * so a deep queue there never fills; on the bridge it behaves like a
 * router's buffer, which is where bufferbloat lives.
 */
export function shape(netns, queueMs, hub) {
  // A bucket of 64 KiB (the lab's own choice for 100 Mbit/s: one GSO packet, a timer tick's worth).
  must(['tc', '-n', hub, 'qdisc', 'replace', 'dev', bridgePort(netns, hub), 'root', 'tbf', 'rate', `${RATE_BITS}bit`, 'burst', '65536', 'latency', `${queueMs}ms`]);
}

function inNetns(netns, argv, options = {}) {
  const child = spawn('ip', ['netns', 'exec', netns, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, exited };
}

/** The p-th percentile, linear between closest ranks (as netbench's load summary computes it). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** flent's run: its data file reduced to the same figures as netbench's summary. */
async function runFlent(client, server, { test, load, idle, step, dir }) {
  const netserver = inNetns(server.labels.netns, ['netserver', '-D', '-4', '-p', String(FLENT_PORT)]);
  try {
    await new Promise((r) => setTimeout(r, 300));
    const args = [
      test,
      '-H',
      server.internalIp,
      '-l',
      String(load),
      '-d',
      String(idle),
      '-s',
      String(step),
      '-D',
      dir,
      '-t',
      'netbench-compare',
      '-f',
      'stats',
      '-o',
      join(dir, 'stats.txt'),
    ];
    if (test === 'tcp_nup' || test === 'tcp_ndown') args.push('--test-parameter', `${test === 'tcp_nup' ? 'upload' : 'download'}_streams=4`);
    const run = inNetns(client.labels.netns, ['flent', ...args], { cwd: dir });
    const out = await run.exited;
    const file = readdirSync(dir).find((f) => f.endsWith('.flent.gz'));
    if (!file) throw new Error(`flent wrote no data file (exit ${out.code}): ${out.stderr.slice(-2000)}`);
    const data = JSON.parse(gunzipSync(readFileSync(join(dir, file))).toString('utf8'));
    const x = data.x_values;
    const series = (name) => data.results[name] ?? [];
    const window = (name, from, to) => series(name).flatMap((v, i) => (v !== null && x[i] >= from && x[i] <= to ? [v] : []));
    const loadStart = idle;
    const loadEnd = idle + load;
    const ramp = Math.min(1, load * 0.1);
    const ping = 'Ping (ms) ICMP';
    const loaded = window(ping, loadStart + ramp, loadEnd);
    const idleRtts = [...window(ping, 0, loadStart - 1e-9), ...window(ping, loadEnd + 1 + 1e-9, Infinity)];
    // Over the whole load phase, slow start included, as netperf's own final figure (netbench's goodput) is.
    const up = window('TCP upload sum', loadStart, loadEnd);
    const down = window('TCP download sum', loadStart, loadEnd);
    const goodput = (up.length ? mean(up) : 0) + (down.length ? mean(down) : 0);
    // netperf's own final throughput of each bulk flow, which flent keeps as the series' MEAN_VALUE (netbench's goodput is the same figure).
    const meta = data.metadata?.SERIES_META ?? {};
    const finals = Object.entries(meta)
      .filter(([name]) => /^TCP (upload|download)::/.test(name))
      .map(([, m]) => Number(m.MEAN_VALUE));
    const netperfGoodput = finals.length > 0 && finals.every(Number.isFinite) ? finals.reduce((a, b) => a + b, 0) : Number.NaN;
    return {
      goodput,
      netperfGoodput,
      loadedP50: percentile(loaded, 50),
      idleP50: percentile(idleRtts, 50),
      loadedCount: loaded.length,
      idleCount: idleRtts.length,
      series: Object.keys(data.results),
    };
  } finally {
    netserver.child.kill('SIGTERM');
    await netserver.exited;
  }
}

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

async function runNetbench(plan, registry) {
  const outcome = await runPlan(plan, { registry, netbenchVersion: 'test' });
  const summary = (metric, probe) => outcome.samples.find((s) => s.metric === metric && s.labels.flow === 'summary' && (probe === undefined || s.labels.probe === probe))?.value;
  return {
    status: outcome.record.status,
    error: outcome.record.trials[0]?.error,
    goodput: summary('goodput_total'),
    loadedP50: summary('latency_loaded_p50', 'icmp'),
    idleP50: summary('latency_idle_p50', 'icmp'),
    increase: summary('latency_increase', 'icmp'),
    rpm: summary('responsiveness'),
    samples: outcome.samples,
  };
}

/**
 * For each setting (congestion control × queue), flent's `test` then
 * netbench's on the same namespaces, `rounds` times. Returns per setting
 * both tools' runs.
 */
export async function compareWithFlent({ test = 'tcp_nup', load = 10, idle = 2, step = 0.2, settings = [{ cc: 'cubic', queueMs: 200 }], rounds = 1 } = {}) {
  // A run id in netbench's own shape (date-time-suffix): `netbench cleanup --older-than` run elsewhere on the machine leaves a young lab alone.
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runId = `${stamp}-lul${Math.random().toString(36).slice(2, 8)}`;
  const dir = mkdtempSync(join(tmpdir(), 'nb-lul-'));
  const ledger = new MemoryLedger(runId, 'local');
  const savedDb = process.env.NETBENCH_DB;
  process.env.NETBENCH_DB = join(dir, 'netbench.db');
  const ctx = { runId, runDir: dir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} }, ledger };
  const undoCubic = allowCubic();
  try {
    const hosts = await localPlugin.provision(
      ['client', 'server'].map((name) => ({ id: name, name, cloud: 'local', config: {} })),
      ctx,
    );
    const byName = new Map(hosts.map((h) => [h.name, h]));
    if (hosts[0].labels.isolation !== 'netns') throw new Error('needs root: the lab fell back to loopback');
    const client = byName.get('client');
    const server = byName.get('server');
    const text = [
      'name: lul-compare',
      'hosts:',
      '  client: { cloud: reuse }',
      '  server: { cloud: reuse }',
      'benchmarks:',
      `  - { tool: load, test: ${test}, client: client, server: server, duration: ${load}, idle: ${idle}, step: ${step}, probes: [icmp] }`,
      `options: { retries: 0, runsDir: ${join(dir, 'runs')} }`,
    ].join('\n');
    const registry = staticRegistry([reuseCloud(byName), netperfPlugin, pingPlugin()]);
    const { spec } = await loadSpec({ text, file: join(dir, 'lul.yaml') }, registry);
    const planned = await createPlan(spec, registry);
    const plan = { ...planned, spec: { ...planned.spec, publish: [] } };

    const results = [];
    for (const setting of settings) {
      for (const host of [client, server]) {
        shape(host.labels.netns, setting.queueMs, hubName(runId));
        setCongestionControl(host.labels.netns, setting.cc);
      }
      const flent = [];
      const netbench = [];
      for (let round = 0; round < rounds; round += 1) {
        const flentDir = mkdtempSync(join(dir, 'flent-'));
        flent.push(await runFlent(client, server, { test, load, idle, step, dir: flentDir }));
        netbench.push(await runNetbench(plan, registry));
      }
      results.push({ ...setting, flent, netbench });
    }
    return results;
  } finally {
    undoCubic();
    for (const resource of ledger.pending()) await localPlugin.teardown(resource, ctx).catch(() => {});
    if (savedDb === undefined) delete process.env.NETBENCH_DB;
    else process.env.NETBENCH_DB = savedDb;
    rmSync(dir, { recursive: true, force: true });
  }
}
