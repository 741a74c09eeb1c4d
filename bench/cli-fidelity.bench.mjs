import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LedgerFile, newRunId, pendingResources, readLedger } from '@netbench/plugin-api';
import { nginxConfig } from '@netbench/plugin-http';
import local from '@netbench/plugin-local';
import { openBenchLab } from './lab.mjs';
import { cli, line, median, tempDir } from './lib.mjs';

const run = promisify(execFile);
const ROUNDS = Number(process.env.CLI_FIDELITY_ROUNDS ?? 6);
const SECONDS = Number(process.env.CLI_FIDELITY_SECONDS ?? 5);
const CONNECTIONS = 10;
const SIZE = 1024;
const HAND_PORT = 18_260;
// Two spinning shells, unpinned, each in a session of its own: the contention of a shared machine, made on purpose.
const BURNERS = Number(process.env.CLI_FIDELITY_BURNERS ?? 2);

/**
 * The whole `netbench run` (CLI, engine, local lab, http plugin) against the
 * same wrk command typed by hand, while CPU burners compete for both vCPUs.
 * Rounds interleave the two arms, their order alternating. Both arms pin
 * nginx to CPU 0 and wrk to CPU 1; by hand each command gets a session of its
 * own (`setsid`), as a terminal's command does; netbench's transport spawns
 * every tool detached (its own session, so its own autogroup). Reported: each
 * arm's median and range, the difference of medians and the paired ratio.
 */
export default async function cliFidelity() {
  const lab = await openBenchLab('netbench-bench-clifid-');
  const home = tempDir('netbench-bench-clifid-home-');
  const spec = join(home, 'wrk.yaml');
  writeFileSync(
    spec,
    [
      'name: cli-fidelity',
      'hosts:',
      '  client: { cloud: local }',
      '  server: { cloud: local }',
      'benchmarks:',
      `  - { tool: http, client: client, server: server, generator: wrk, connections: ${CONNECTIONS}, threads: 1, size: ${SIZE}, duration: ${SECONDS}, clientCpus: '1', serverCpus: '0' }`,
      'publish:',
      '  - type: json',
      '',
    ].join('\n'),
  );
  const burners = Array.from({ length: BURNERS }, () => spawn('sh', ['-c', 'while :; do :; done'], { detached: true, stdio: 'ignore' }));
  try {
    line('autogroup scheduling', readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim());
    line('background load', `${BURNERS} CPU burners, unpinned`);
    line('load average (1 min) at start', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    const arms = {
      hand: () =>
        withHandNginx(lab.server, async () => {
          const url = `http://${lab.server.internalIp}:${HAND_PORT}/obj-${SIZE}`;
          const { stdout } = await run(
            'setsid',
            [
              '-w',
              'ip',
              'netns',
              'exec',
              lab.client.labels.netns,
              'taskset',
              '-c',
              '1',
              'wrk',
              '-t',
              '1',
              '-c',
              String(CONNECTIONS),
              '-d',
              `${SECONDS}s`,
              '--timeout',
              '10s',
              '--latency',
              '--',
              url,
            ],
            { encoding: 'utf8' },
          );
          return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]);
        }),
      netbench: async () => {
        const runs = join(home, 'runs');
        cli(['run', spec, '--runs-dir', runs, '--progress', 'none'], { NETBENCH_HOME: home });
        const latest = readdirSync(runs).sort().at(-1);
        const samples = readFileSync(join(runs, latest, 'samples.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        rmSync(join(runs, latest), { recursive: true, force: true });
        return samples.find((s) => s.metric === 'HTTP_Request_Rate').value;
      },
    };
    const results = { hand: [], netbench: [] };
    for (let i = 0; i < ROUNDS; i += 1) {
      for (const arm of i % 2 === 0 ? ['hand', 'netbench'] : ['netbench', 'hand']) results[arm].push(await arms[arm]());
    }
    const [h, n] = [median(results.hand), median(results.netbench)];
    const range = (v) => `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`;
    console.log(`  wrk -t 1 -c ${CONNECTIONS} -d ${SECONDS}s (1 KiB, keep-alive), nginx CPU 0, wrk CPU 1: ${ROUNDS} rounds, arms alternating`);
    line('  requests/s medians: by hand / netbench run', `${Math.round(h)} / ${Math.round(n)}`);
    line('  requests/s ranges: by hand | netbench run', `${range(results.hand)} | ${range(results.netbench)}`);
    line('  difference of medians: netbench vs by hand', `${(((n - h) / h) * 100).toFixed(1)} %`, 'within 5 %');
    line('  paired (same round): median netbench / by hand', `${((median(results.netbench.map((x, i) => x / results.hand[i])) - 1) * 100).toFixed(1)} %`, 'within 5 %');
    await lab.close();
    await meshRow(home);
    line('load average (1 min) at end', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } finally {
    for (const b of burners)
      try {
        process.kill(-b.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    await lab.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

/** nginx by hand in the server namespace, the plugin's config, pinned to CPU 0, in a session of its own, for the length of `use`. */
async function withHandNginx(server, use) {
  const dir = mkdtempSync('/tmp/netbench-bench-clifid-nginx-');
  chmodSync(dir, 0o755);
  for (const sub of ['www', 'tmp']) mkdirSync(join(dir, sub));
  chmodSync(join(dir, 'www'), 0o755);
  writeFileSync(join(dir, 'www', `obj-${SIZE}`), '');
  truncateSync(join(dir, 'www', `obj-${SIZE}`), SIZE);
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig({ dir, port: HAND_PORT, tls: false, keepalive: true, workers: 1, connections: CONNECTIONS }));
  const ns = server.labels.netns;
  const nginx = spawn('ip', ['netns', 'exec', ns, 'taskset', '-c', '0', 'nginx', '-p', `${dir}/`, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`], {
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  try {
    for (let i = 0; ; i += 1) {
      const { stdout } = await run('ip', ['netns', 'exec', ns, 'ss', '-Hltn', `sport = :${HAND_PORT}`]);
      if (stdout.trim() !== '') break;
      if (i > 200) throw new Error(`nginx by hand did not listen on ${HAND_PORT}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await use();
  } finally {
    try {
      process.kill(-nginx.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The mesh (4 lab hosts, 12 netperf TCP_STREAM flows at once, each client on
 * CPU 0 and its server on CPU 1, as examples/mesh.yaml) through `netbench run`
 * against the same 12 netperf commands started at once by hand, each with
 * `setsid` as from 12 terminals, against one netserver per host: the sum of
 * the 12 throughputs, Gbit/s.
 */
async function meshRow(home) {
  const quiet = { debug() {}, info() {}, warn() {} };
  const runId = newRunId();
  const runDir = join(home, runId);
  mkdirSync(runDir, { recursive: true });
  const ledger = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
  const ctx = { runId, runDir, signal: new AbortController().signal, log: quiet };
  const hosts = await local.provision(
    ['a', 'b', 'c', 'd'].map((name) => ({ id: name, name, cloud: 'local', config: {} })),
    { ...ctx, ledger: ledger.forPlugin('local') },
  );
  const servers = hosts.map((h) => spawn('ip', ['netns', 'exec', h.labels.netns, 'netserver', '-D', '-p', '20000'], { detached: true, stdio: 'ignore' }));
  const spec = join(home, 'mesh.yaml');
  writeFileSync(
    spec,
    [
      'name: cli-fidelity-mesh',
      'hosts:',
      ...['a', 'b', 'c', 'd'].map((h) => `  ${h}: { cloud: local }`),
      'benchmarks:',
      `  - { tool: netperf, flows: { topology: mesh, hosts: [a, b, c, d] }, tests: [TCP_STREAM], duration: ${SECONDS}, cpus: { client: 0, server: 1 } }`,
      'publish:',
      '  - type: json',
      '',
    ].join('\n'),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const arms = {
      hand: async () => {
        const pairs = hosts.flatMap((a) => hosts.filter((b) => b !== a).map((b) => [a, b]));
        const each = await Promise.all(
          pairs.map(async ([a, b]) => {
            const { stdout } = await run(
              'setsid',
              [
                '-w',
                'ip',
                'netns',
                'exec',
                a.labels.netns,
                'netperf',
                '-p',
                '20000',
                '-t',
                'TCP_STREAM',
                '-H',
                b.internalIp,
                '-l',
                String(SECONDS),
                '-T',
                '0,1',
                '-D',
                '1',
                '--',
                '-o',
                'THROUGHPUT',
              ],
              { encoding: 'utf8' },
            );
            return Number(stdout.trim().split('\n').at(-1));
          }),
        );
        return each.reduce((sum, x) => sum + x, 0) / 1000;
      },
      netbench: async () => {
        const runs = join(home, 'mesh-runs');
        cli(['run', spec, '--runs-dir', runs, '--progress', 'none'], { NETBENCH_HOME: home });
        const latest = readdirSync(runs).sort().at(-1);
        const samples = readFileSync(join(runs, latest, 'samples.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        rmSync(join(runs, latest), { recursive: true, force: true });
        const total = samples.find((s) => s.metric === 'TCP_STREAM_Throughput' && s.labels.flow === 'aggregate');
        return total.value / 1000;
      },
    };
    const results = { hand: [], netbench: [] };
    for (let i = 0; i < ROUNDS; i += 1) {
      for (const arm of i % 2 === 0 ? ['hand', 'netbench'] : ['netbench', 'hand']) results[arm].push(await arms[arm]());
    }
    const [h, n] = [median(results.hand), median(results.netbench)];
    const range = (v) => `${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)}`;
    console.log(`  mesh of 4 hosts, 12 netperf TCP_STREAM flows of ${SECONDS} s, clients CPU 0, servers CPU 1: ${ROUNDS} rounds, arms alternating`);
    line('  aggregate Gbit/s medians: by hand / netbench run', `${h.toFixed(1)} / ${n.toFixed(1)}`);
    line('  aggregate ranges: by hand | netbench run', `${range(results.hand)} | ${range(results.netbench)}`);
    line('  difference of medians: netbench vs by hand', `${(((n - h) / h) * 100).toFixed(1)} %`, 'within 5 %');
    line('  paired (same round): median netbench / by hand', `${((median(results.netbench.map((x, i) => x / results.hand[i])) - 1) * 100).toFixed(1)} %`, 'within 5 %');
  } finally {
    for (const s of servers)
      try {
        process.kill(-s.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    for (const entry of pendingResources(await readLedger(join(runDir, 'ledger.jsonl')))) await local.teardown(entry.resource, ctx).catch(() => {});
    await ledger.close();
  }
}
