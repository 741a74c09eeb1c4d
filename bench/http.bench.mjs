import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, chmodSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerFile, newRunId, readLedger, pendingResources } from '@netbench/plugin-api';
import local from '@netbench/plugin-local';
import http, { nginxConfig, parseAb, parseAbPercentilesCsv, parseWrk, parseOha } from '@netbench/plugin-http';
import { line, median, tempDir } from './lib.mjs';

const ROUNDS = Number(process.env.HTTP_BENCH_ROUNDS ?? 7);
// Seconds per wrk/oha round: a p99 of a 3 s run rests on ~1,000 requests and moves with every scheduler hiccup.
const SECONDS = Number(process.env.HTTP_BENCH_SECONDS ?? 5);
const AB_REQUESTS = SECONDS * 20_000;
const quiet = { debug() {}, info() {}, warn() {} };
// On 2 vCPUs placement decides the result: nginx on CPU 0, the load generator on CPU 1, by hand and via netbench alike.
const SERVER_CPUS = '0';
const CLIENT_CPUS = '1';
const HAND_PORT = 18_250;

/**
 * On the same two lab namespaces, alternate back to back: the load generator
 * run by hand (`ip netns exec CLIENT taskset -c 1 wrk …` against an nginx
 * started by hand with the same generated config, pinned to CPU 0) and the
 * same trial through the http plugin, the first of each pair alternating.
 * Medians of requests/s, p50 and p99 on each side, their ranges, and the
 * differences.
 */
export default async function httpBench() {
  const runsDir = tempDir('netbench-bench-http-');
  const runId = newRunId();
  const runDir = join(runsDir, runId);
  mkdirSync(join(runDir, 'raw'), { recursive: true });
  const ledger = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  const ctx = { runId, runDir, signal: new AbortController().signal, log: quiet };
  const requests = ['client', 'server'].map((name) => ({ id: name, name, cloud: 'local', config: {} }));
  const [client, server] = await local.provision(requests, { ...ctx, ledger: ledger.forPlugin('local') });
  try {
    const info = await http.check(client, ctx);
    line('placement', `nginx CPU ${SERVER_CPUS}, client CPU ${CLIENT_CPUS}`);
    line('versions', `${info.version}`);
    line('kernel', execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
    line('autogroup scheduling', readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim());
    line('load average (1 min) at start', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    const trialCtx = (id) => ({ ...ctx, timeoutMs: 120_000, saveRaw: async (name, content) => { const p = join(runDir, 'raw', `${id}-${name}`); writeFileSync(p, content); return p; }, progress() {} });
    const trialOf = (block, i) => {
      const [spec] = http.trials(http.schema.parse({ ...block, clientCpus: CLIENT_CPUS, serverCpus: SERVER_CPUS }));
      return { id: `${block.generator}-${i}`, test: spec.test, params: spec.params, client, server, target: server.internalIp, clientInfo: info, serverInfo: info, attempt: 0 };
    };
    const pick = (samples) => ({
      rate: samples.find((s) => s.metric === 'HTTP_Request_Rate').value,
      p50: samples.find((s) => s.metric === 'HTTP_Latency_p50').value,
      p99: samples.find((s) => s.metric === 'HTTP_Latency_p99').value,
    });
    const fromResult = (r) => ({ rate: r.successes / r.seconds, p50: r.percentiles.find(([p]) => p === 50)[1], p99: r.percentiles.find(([p]) => p === 99)[1] });

    const cases = [
      { what: `wrk -t 1 -c 10 -d ${SECONDS}s, 1 KiB, keep-alive`, block: { generator: 'wrk', connections: 10, threads: 1, duration: SECONDS, size: '1K' },
        hand: (url) => fromResult(parseWrk(inClient(['wrk', '-t', '1', '-c', '10', '-d', `${SECONDS}s`, '--timeout', '10s', '--latency', '--', url]))) },
      { what: `ab -n ${AB_REQUESTS} -c 10 -k, 1 KiB`, block: { generator: 'ab', connections: 10, requests: AB_REQUESTS, size: '1K' },
        hand: (url) => {
          const csv = join(mkdtempSync('/tmp/netbench-bench-ab-'), 'p.csv');
          const report = parseAb(inClient(['ab', '-n', String(AB_REQUESTS), '-c', '10', '-k', '-s', '10', '-e', csv, '-r', '--', url]));
          const rows = parseAbPercentilesCsv(readFileSync(csv, 'utf8'));
          rmSync(join(csv, '..'), { recursive: true, force: true });
          return { rate: report.successes / report.seconds, p50: rows.find(([p]) => p === 50)[1], p99: rows.find(([p]) => p === 99)[1] };
        } },
    ];
    const oha = ohaCommand();
    if (oha) {
      cases.push({ what: `oha -q 2000 --latency-correction -c 10 -z ${SECONDS}s, 1 KiB`, block: { generator: 'oha', connections: 10, duration: SECONDS, rate: 2000, size: '1K' },
        hand: (url) => fromResult(parseOha(inClient([oha, '-z', `${SECONDS}s`, '-c', '10', '-q', '2000', '--latency-correction', '-t', '10s', '--no-tui', '--output-format', 'json', '--', url]))) });
    } else {
      line('oha', 'not installed: skipped (scripts/install-oha.sh)');
    }

    for (const c of cases) {
      const byHand = [];
      const viaNetbench = [];
      for (let i = 0; i < ROUNDS; i += 1) {
        const hand = () => byHand.push(withHandNginx(server, (url) => c.hand(url)));
        const netbench = async () => viaNetbench.push(pick((await http.run(trialOf(c.block, i), trialCtx(`${c.block.generator}-${i}`))).samples));
        // Who goes first alternates, so a drift in the machine's load does not favour one side.
        if (i % 2 === 0) { hand(); await netbench(); } else { await netbench(); hand(); }
      }
      report(c.what, byHand, viaNetbench);
    }
  } finally {
    for (const entry of pendingResources(await readLedger(join(runDir, 'ledger.jsonl')))) {
      await local.teardown(entry.resource, ctx).catch((e) => console.log(`  teardown: ${e.message}`));
    }
  }

  // With autogroup scheduling (sched_autogroup_enabled=1) a process's CPU share depends on its session: a
  // command typed in a terminal has its own, and so has what netbench spawns (detached). `setsid -w`
  // gives the by-hand command its own session too; without it, it shares this bench's session and
  // gets less CPU on a loaded machine (measured: 27-44 % fewer requests/s).
  function inClient(argv) {
    return execFileSync('setsid', ['-w', 'ip', 'netns', 'exec', client.labels.netns, 'taskset', '-c', CLIENT_CPUS, ...argv], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
  }
}

/** An nginx started by hand in the server namespace with the plugin's config, for the length of `use`. */
function withHandNginx(server, use) {
  const dir = mkdtempSync('/tmp/netbench-bench-nginx-');
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www'));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'www', 'obj-1024'), '');
  truncateSync(join(dir, 'www', 'obj-1024'), 1024);
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig({ dir, port: HAND_PORT, tls: false, keepalive: true, workers: 1, connections: 10 }).replace('daemon off;', 'daemon on;'));
  const ns = server.labels.netns;
  execFileSync('ip', ['netns', 'exec', ns, 'taskset', '-c', SERVER_CPUS, 'nginx', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')]);
  try {
    return use(`http://${server.internalIp}:${HAND_PORT}/obj-1024`);
  } finally {
    const pid = Number(readFileSync(join(dir, 'nginx.pid'), 'utf8'));
    try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
    for (let i = 0; i < 100; i += 1) {
      try { process.kill(pid, 0); } catch { break; }
      execFileSync('sleep', ['0.05']);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function ohaCommand() {
  for (const candidate of ['oha', join(process.env.HOME ?? '/root', '.cache/netbench/oha/bin/oha')]) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch { /* next */ }
  }
  return undefined;
}

function report(what, byHand, viaNetbench) {
  console.log(`  ${what} (median of ${byHand.length} rounds each, alternating)`);
  for (const [key, unit] of [['rate', 'requests/s'], ['p50', 'ms'], ['p99', 'ms']]) {
    const hand = byHand.map((r) => r[key]);
    const nb = viaNetbench.map((r) => r[key]);
    const a = median(hand);
    const b = median(nb);
    line(`    ${key} by hand / via netbench (${unit})`, `${fmt(a)} / ${fmt(b)}`);
    // The spread of each side says how much of the difference the machine's noise explains.
    line(`    ${key} range by hand | via netbench`, `${fmt(Math.min(...hand))}–${fmt(Math.max(...hand))} | ${fmt(Math.min(...nb))}–${fmt(Math.max(...nb))}`);
    line(`    ${key} difference`, `${(((b - a) / a) * 100).toFixed(1)} %`, 'within 5 %');
    // The same command against itself: by hand's even rounds vs its odd rounds. A difference above is
    // netbench's only where it is well beyond this one.
    const even = hand.filter((_, i) => i % 2 === 0);
    const odd = hand.filter((_, i) => i % 2 === 1);
    if (odd.length) line(`    ${key} by hand vs itself (even vs odd rounds)`, `${(((median(odd) - median(even)) / median(even)) * 100).toFixed(1)} %`);
  }
}

function fmt(x) {
  return x >= 100 ? x.toFixed(0) : x.toFixed(3);
}
