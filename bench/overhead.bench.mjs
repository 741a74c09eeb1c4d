// Overhead per benchmark (issue 19): what a netbench run costs beyond the
// raw tools' own time for the same work, over SSH and on the local lab.
//
// Two namespaces (a, b) each run their own sshd; a third (controller) holds
// the CLI, like a controller on a VM. Each row runs, interleaved, the same
// work with netbench (`cloud: static` hosts over SSH, `ip netns exec
// controller node netbench run`) and with the raw tools by hand over the same
// SSH path (`ssh a -- netperf -H b ...`, timed on the host around the tool
// itself). Overhead = netbench wall time − the sum of the raw tools' own
// times measured by hand in the same round. min/median/max over the rounds.
//
// Environment: OVERHEAD_BENCH_ROUNDS (default 5), OVERHEAD_BENCH_SECONDS
// (netperf/iperf duration, default 10; ping -c 100 is paced to last as long
// per direction: -i SECONDS/50, 0.2 s at 10), OVERHEAD_BENCH_ROWS (comma list
// of netperf,iperf,ping,local; default all), OVERHEAD_BENCH_BASELINE (another
// checkout, built: its CLI runs the same rows in the same rounds, interleaved,
// so before/after are compared under the same load on a shared machine).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { cliBin, line, median, repoRoot, tempDir } from './lib.mjs';

const ROUNDS = Number(process.env.OVERHEAD_BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.OVERHEAD_BENCH_SECONDS ?? 10);
const ROWS = (process.env.OVERHEAD_BENCH_ROWS ?? 'netperf,iperf,ping,local').split(',');
const PING_INTERVAL = SECONDS / 50;
const HAND_NETSERVER_PORT = 12_901;
const HAND_IPERF_PORT = 5_951;
const BASELINE = process.env.OVERHEAD_BENCH_BASELINE;
const CLIS = [['netbench', cliBin], ...(BASELINE ? [['baseline', join(BASELINE, 'packages/cli/bin/run.js')]] : [])];

const { default: local } = await import(join(repoRoot, 'packages/plugins/local/dist/index.js'));

export default async function overhead() {
  const lab = await startLab();
  const user = `nbtover${process.pid % 100000}`;
  const loadBefore = loadavg();
  try {
    // root's login shell here is bash with a heavy ~/.bashrc, which sshd makes bash
    // read for every command: a throw-away user with /bin/sh, as on a cloud image.
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/', '--shell', '/bin/sh', user]);
    execFileSync('usermod', ['-p', '*', user]);
    lab.shareKeys();
    environment(lab);
    const hand = lab.startHandServers(user);
    const rows = [];
    try {
      if (ROWS.includes('netperf'))
        rows.push(
          row(lab, 'netperf TCP_RR + TCP_STREAM', netperfSpec(lab, user), () => [
            lab.timedOverSsh('a', user, [
              'netperf',
              '-H',
              lab.ip('b'),
              '-p',
              String(HAND_NETSERVER_PORT),
              '-t',
              'TCP_RR',
              '-l',
              String(SECONDS),
              '-j',
              '--',
              '-r',
              '1,1',
              '-o',
              'P50_LATENCY',
            ]),
            lab.timedOverSsh('a', user, ['netperf', '-H', lab.ip('b'), '-p', String(HAND_NETSERVER_PORT), '-t', 'TCP_STREAM', '-l', String(SECONDS)]),
          ]),
        );
      if (ROWS.includes('iperf'))
        rows.push(
          row(lab, 'iperf2 TCP, both directions', iperfSpec(lab, user), () => [
            lab.timedOverSsh('a', user, ['iperf', '-c', lab.ip('b'), '-p', String(HAND_IPERF_PORT), '-t', String(SECONDS)]),
            lab.timedOverSsh('b', user, ['iperf', '-c', lab.ip('a'), '-p', String(HAND_IPERF_PORT), '-t', String(SECONDS)]),
          ]),
        );
      if (ROWS.includes('ping'))
        rows.push(
          row(lab, 'ping -c 100, both directions', pingSpec(lab, user), () => [
            lab.timedOverSsh('a', user, ['ping', '-c', '100', '-i', String(PING_INTERVAL), lab.ip('b')]),
            lab.timedOverSsh('b', user, ['ping', '-c', '100', '-i', String(PING_INTERVAL), lab.ip('a')]),
          ]),
        );
      if (ROWS.includes('local'))
        rows.push(
          row(
            lab,
            'local lab: netperf TCP_RR + TCP_STREAM',
            localSpec(lab),
            () => [
              lab.timedInNetns('a', [
                'netperf',
                '-H',
                lab.ip('b'),
                '-p',
                String(HAND_NETSERVER_PORT),
                '-t',
                'TCP_RR',
                '-l',
                String(SECONDS),
                '-j',
                '--',
                '-r',
                '1,1',
                '-o',
                'P50_LATENCY',
              ]),
              lab.timedInNetns('a', ['netperf', '-H', lab.ip('b'), '-p', String(HAND_NETSERVER_PORT), '-t', 'TCP_STREAM', '-l', String(SECONDS)]),
            ],
            { controller: false },
          ),
        );
    } finally {
      hand.stop();
    }
  } finally {
    try {
      execFileSync('userdel', [user]);
    } catch {
      /* not created */
    }
    await lab.teardown();
    line(
      'load average (1, 5, 15 min) before → after',
      `${loadBefore.map((l) => l.toFixed(2)).join(' ')} → ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

/** One row's figures, printed as soon as it is measured (a long run that fails later keeps them). */
function print(r) {
  console.log(`\n  ${r.name}: overhead = netbench wall time − the raw tools' own time, ${ROUNDS} rounds interleaved, ${SECONDS} s tools`);
  for (const [who] of [...CLIS].reverse()) {
    const x = r.by[who];
    line(
      `${who === 'baseline' ? 'baseline' : 'this checkout'} (min / median / max)`,
      `${fmt(Math.min(...x.overhead))} / ${fmt(median(x.overhead))} / ${fmt(Math.max(...x.overhead))} s`,
      r.local ? '≤ 0.3 s' : '≤ 0.7 s',
    );
    line('  raw tools by hand (median) / netbench wall (median)', `${fmt(median(r.raw))} / ${fmt(median(x.wall))} s`);
    const phases = ['start', 'provision', 'prepare', 'execute-over-raw', 'teardown', 'publish', 'exit'];
    line('  median: start/provision/prepare/execute−raw/teardown/publish/exit', phases.map((p) => fmt(median(x.phases.map((y) => y[p])))).join(' '));
  }
}

/** One row: ROUNDS × (netbench [and the baseline's], then the raw tools by hand). */
function row(lab, name, spec, byHand, { controller = true } = {}) {
  const r = { name, local: !controller, raw: [], by: Object.fromEntries(CLIS.map(([who]) => [who, { overhead: [], wall: [], phases: [] }])) };
  // One untimed run per CLI first, so each starts the rounds with its caches warm (Node's compile cache,
  // netbench's code cache), as a user's runs after the first do.
  for (const [, bin] of CLIS) lab.runNetbench(spec, controller, bin);
  for (let i = 0; i < ROUNDS; i += 1) {
    // Alternate which CLI goes first, so neither always follows the by-hand runs.
    const order = i % 2 ? [...CLIS].reverse() : CLIS;
    const runs = Object.fromEntries(order.map(([who, bin]) => [who, lab.runNetbench(spec, controller, bin)]));
    const raw = byHand().reduce((a, b) => a + b, 0);
    r.raw.push(raw);
    for (const [who, run] of Object.entries(runs)) {
      r.by[who].wall.push(run.wall);
      r.by[who].overhead.push(run.wall - raw);
      r.by[who].phases.push({ ...run.phases, 'execute-over-raw': run.phases.execute - raw });
    }
  }
  print(r);
  return r;
}

const fmt = (seconds) => seconds.toFixed(2);

function netperfSpec(lab, user) {
  return lab.writeSpec('netperf', [
    ...staticHosts(lab, user),
    'benchmarks:',
    '  - tool: netperf',
    '    client: client',
    '    server: server',
    '    tests: [TCP_RR, TCP_STREAM]',
    `    duration: ${SECONDS}`,
  ]);
}

function iperfSpec(lab, user) {
  return lab.writeSpec('iperf', [
    ...staticHosts(lab, user),
    'benchmarks:',
    '  - tool: iperf',
    '    client: client',
    '    server: server',
    `    duration: ${SECONDS}`,
    '  - tool: iperf',
    '    client: server',
    '    server: client',
    `    duration: ${SECONDS}`,
  ]);
}

function pingSpec(lab, user) {
  return lab.writeSpec('ping', [
    ...staticHosts(lab, user),
    'benchmarks:',
    '  - tool: ping',
    '    client: client',
    '    server: server',
    '    count: 100',
    `    interval: ${PING_INTERVAL}`,
    '    direction: both',
  ]);
}

function localSpec(lab) {
  return lab.writeSpec('local', [
    'name: overhead-local',
    'hosts:',
    '  client: { cloud: local }',
    '  server: { cloud: local }',
    'benchmarks:',
    '  - tool: netperf',
    '    client: client',
    '    server: server',
    '    tests: [TCP_RR, TCP_STREAM]',
    `    duration: ${SECONDS}`,
  ]);
}

function staticHosts(lab, user) {
  const host = (name, id) =>
    `  ${name}: { cloud: static, address: ${lab.ip(id)}, user: ${user}, key: ${lab.hosts[id].labels.ssh_key}, knownHosts: ${lab.hosts[id].labels.ssh_known_hosts} }`;
  return ['name: overhead', 'hosts:', host('client', 'a'), host('server', 'b')];
}

/** Kernel, CPUs, tool versions, placement and qdisc: what decides these figures. */
function environment(lab) {
  const first = (argv) => {
    const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
    return `${r.stdout}${r.stderr}`.trim().split('\n')[0] ?? '';
  };
  line('kernel / CPUs', `${release()} / ${cpus().length} × ${cpus()[0]?.model ?? '?'}`);
  line('node', process.version);
  line('netperf', first(['netperf', '-V']));
  line('iperf', first(['iperf', '-v']));
  line('ping', first(['ping', '-V']));
  line('ssh server', first(['/usr/sbin/sshd', '-V']));
  line('placement', 'unpinned; the 3 namespaces share the machine (not idle: see load average)');
  line('qdisc on a (tc qdisc show)', first(['ip', 'netns', 'exec', lab.hosts.a.labels.netns, 'tc', 'qdisc', 'show']));
}

async function startLab() {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runId = `${stamp}-o${Math.random().toString(36).slice(2, 7).padEnd(5, '0')}`;
  const root = tempDir(`netbench-bench-overhead-${runId}-`);
  const runDir = join(root, 'lab');
  const resources = [];
  const ledger = {
    entries: [],
    track: async (r, create) => {
      resources.push(r);
      return create();
    },
    created: async (r) => {
      resources.push(r);
    },
  };
  const ctx = { runId, runDir, signal: AbortSignal.timeout(120_000), log: { debug() {}, info() {}, warn() {} } };
  const requests = ['controller', 'a', 'b'].map((id) => ({ id, name: id, cloud: 'local', config: id === 'controller' ? {} : { sshd: true } }));
  const teardown = async () => {
    for (const r of [...resources].reverse()) await local.teardown(r, ctx).catch(() => {});
    rmSync(root, { recursive: true, force: true });
  };
  let hosts;
  try {
    hosts = Object.fromEntries((await local.provision(requests, { ...ctx, ledger })).map((h) => [h.id, h]));
  } catch (error) {
    await teardown();
    throw error;
  }
  const netns = (id) => hosts[id].labels.netns;
  const inNetns = (id, argv) => ['ip', 'netns', 'exec', netns(id), ...argv];
  let specs = 0;
  return {
    hosts,
    teardown,
    ip: (id) => hosts[id].internalIp,
    shareKeys() {
      for (const dir of [root, runDir, join(runDir, 'local')]) chmodSync(dir, 0o755);
      for (const id of ['a', 'b']) {
        chmodSync(join(runDir, 'local', id), 0o755);
        chmodSync(join(runDir, 'local', id, 'authorized_keys'), 0o644);
        chmodSync(hosts[id].labels.ssh_known_hosts, 0o644);
      }
    },
    writeSpec(name, lines) {
      const file = join(root, `${name}-${(specs += 1)}.yaml`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    },
    /** The servers the by-hand runs use, started once and stopped at the end (not timed). */
    startHandServers(user) {
      const procs = ['a', 'b'].flatMap((id) => [
        spawn('ip', inNetns(id, ['runuser', '-u', user, '--', 'netserver', '-D', '-p', String(HAND_NETSERVER_PORT)]).slice(1), { stdio: 'ignore' }),
        spawn('ip', inNetns(id, ['runuser', '-u', user, '--', 'iperf', '-s', '-p', String(HAND_IPERF_PORT)]).slice(1), { stdio: 'ignore' }),
      ]);
      spawnSync('sleep', ['0.5']); // not on any timed path: lets the by-hand servers bind
      // runuser does not pass SIGTERM on to the server: stop the user's processes in each namespace by pid.
      const uid = execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim();
      const pidsIn = (id) => {
        try {
          return execFileSync('ip', ['netns', 'pids', netns(id)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
            .split('\n')
            .filter(Boolean);
        } catch {
          return [];
        }
      };
      const ours = () =>
        ['a', 'b'].flatMap(pidsIn).filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/status`, 'utf8').match(/^Uid:\s+(\d+)/m)?.[1] === uid;
          } catch {
            return false;
          }
        });
      return {
        stop: () => {
          for (const signal of ['SIGTERM', 'SIGKILL']) {
            for (const pid of ours()) {
              try {
                process.kill(Number(pid), signal);
              } catch {
                /* gone */
              }
            }
            for (const p of procs) p.kill(signal);
            spawnSync('sleep', ['0.2']);
          }
        },
      };
    },
    /** The tool's own seconds, timed on the host around the tool (the SSH round trip excluded). */
    timedOverSsh(id, user, argv) {
      const ssh = [
        'ssh',
        '-i',
        hosts[id].labels.ssh_key,
        '-o',
        `UserKnownHostsFile=${hosts[id].labels.ssh_known_hosts}`,
        '-o',
        'StrictHostKeyChecking=yes',
        '-o',
        'BatchMode=yes',
        '-p',
        hosts[id].labels.ssh_port,
        `${user}@${hosts[id].internalIp}`,
        '--',
        `s=$(date +%s%N); ${argv.map(quote).join(' ')} >/dev/null 2>&1; c=$?; e=$(date +%s%N); echo $((e-s)) $c`,
      ];
      const out = execFileSync(inNetns('controller', ssh)[0], inNetns('controller', ssh).slice(1), { encoding: 'utf8' }).trim().split(/\s+/);
      if (out[1] !== '0') throw new Error(`by hand on ${id}: ${argv.join(' ')} exited ${out[1]}`);
      return Number(out[0]) / 1e9;
    },
    timedInNetns(id, argv) {
      const t = process.hrtime.bigint();
      execFileSync('ip', inNetns(id, argv).slice(1), { stdio: 'ignore' });
      return Number(process.hrtime.bigint() - t) / 1e9;
    },
    /** Wall seconds of one `netbench run`, and its phases from events.jsonl. */
    runNetbench(spec, controller, bin = cliBin) {
      const home = tempDir('netbench-bench-overhead-home-');
      try {
        const argv = [process.execPath, bin, 'run', spec, '--runs-dir', join(home, 'runs'), '--progress', 'none'];
        const full = controller ? inNetns('controller', argv) : argv;
        const began = Date.now();
        const t = process.hrtime.bigint();
        // A fresh home per run, but one code cache per CLI for the whole benchmark, as a user's home keeps it
        // (packages/cli/src/run-bundle.ts; a CLI without one ignores the variable).
        const codeCache = join(root, `code-cache-${createHash('sha256').update(bin).digest('hex').slice(0, 8)}`);
        const result = spawnSync(full[0], full.slice(1), { encoding: 'utf8', env: { ...process.env, NETBENCH_HOME: home, NETBENCH_CODE_CACHE: codeCache, SSH_AUTH_SOCK: '' } });
        const wall = Number(process.hrtime.bigint() - t) / 1e9;
        const ended = began + wall * 1000;
        const runDir = join(home, 'runs', readdirSync(join(home, 'runs'))[0] ?? '');
        if (result.status !== 0) {
          // Which CLI, and what its failed trials said (the run folder goes with the home below).
          let failures = '';
          try {
            failures = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'))
              .run.trials.filter((t) => t.error)
              .map((t) => `${t.id} ${t.test}: ${t.error}`)
              .join('; ');
          } catch {
            /* no results */
          }
          throw new Error(`${bin} run ${spec} exited ${result.status}: ${failures || result.stderr}`);
        }
        const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
        const phase = (name) => (events.find((e) => e.type === 'phase-finished' && e.phase === name)?.durationMs ?? 0) / 1000;
        const time = (e) => new Date(e.time).getTime();
        const phases = {
          start: (time(events[0]) - began) / 1000,
          provision: phase('provision'),
          prepare: phase('prepare'),
          execute: phase('execute'),
          teardown: phase('teardown'),
          publish: phase('publish'),
          exit: (ended - time(events.at(-1))) / 1000,
        };
        return { wall, phases };
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  };
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
