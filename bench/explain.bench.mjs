import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERIES_MIN_SECONDS } from '../packages/core/dist/explain/cpu-series.js';
import { CPU_READ_ARGV } from '../packages/core/dist/explain/cpu-ticker.js';
import { parseProcStat } from '../packages/core/dist/explain/proc-stat.js';
import { counterReadArgv } from '../packages/core/dist/explain/read-counters.js';
import { processHost } from '../packages/plugin-api/dist/index.js';
import { cli, line, median, tempDir } from './lib.mjs';

const ROUNDS = Number(process.env.EXPLAIN_BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.EXPLAIN_BENCH_SECONDS ?? 5);
const READS = 100;

/**
 * What reading host counters during every trial costs (docs/explain.md):
 * the CPU time of one counter read (the single `sh` process a trial runs per
 * host per read, `head` over /proc, `tc`, `ss`), of one per-interval CPU read
 * (`sed` over /proc/stat; bare, and through `ip netns exec` as a lab host
 * runs it, in a namespace made for the bench), the controller's own CPU per
 * read (spawning it and parsing), and netperf TCP_RR through
 * the whole `netbench run` with counters on and off, rounds interleaved (the
 * order alternating), both ends pinned to CPUs of their own.
 */
export default async function explainBench() {
  // CPU of READS reads, children included: bash's `times` after running them.
  const cpuMs = (argv) => {
    const [command, ...args] = argv;
    const script = `for i in $(seq ${READS}); do "$@" > /dev/null; done; times`;
    const times = execFileSync('bash', ['-c', script, 'bench', command, ...args], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    const seconds = times
      .split(/\s+/)
      .map((t) => {
        const m = /^(\d+)m([\d.]+)s$/.exec(t);
        return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
      })
      .reduce((a, b) => a + b, 0);
    return (seconds / READS) * 1000;
  };
  // What a trial reads: start and end (with the peer), at 25 % the processes, at 75 % the processes and the sockets.
  const edge = cpuMs(counterReadArgv('127.0.0.1'));
  const early = cpuMs(counterReadArgv(undefined, { processes: true }));
  const late = cpuMs(counterReadArgv('127.0.0.1', { processes: true, sockets: true }));
  line('CPU of a start or end read (head, tc, route)', `${edge.toFixed(2)} ms`);
  line('CPU of the 25 % read (+ processes)', `${early.toFixed(2)} ms`);
  line('CPU of the 75 % read (+ processes, sockets)', `${late.toFixed(2)} ms`);
  const tick = cpuMs(CPU_READ_ARGV);
  const tickNs = inNamespace((ns) => cpuMs(['ip', 'netns', 'exec', ns, ...CPU_READ_ARGV]));
  line('CPU of a per-interval read (sed over /proc/stat)', `${tick.toFixed(2)} ms`);
  if (tickNs !== undefined) line('  the same through ip netns exec (a lab host)', `${tickNs.toFixed(2)} ms`);
  line('controller CPU per per-interval read (spawn, parse)', `${(await controllerMs()).toFixed(2)} ms`);
  const perTick = tickNs ?? tick;
  for (const seconds of [1, 2, 5, 10, 60]) {
    const reads = seconds >= 5 ? 2 * edge + early + late : 2 * edge;
    // At a 1 s interval: a read when the trial starts and one a second until it ends.
    const ticks = seconds >= SERIES_MIN_SECONDS ? (seconds + 1) * perTick : 0;
    line(`  share of one core per host, ${seconds} s trial${ticks ? ' (+ 1 s reads)' : ''}`, `${((reads + ticks) / (seconds * 10)).toFixed(3)} %`, '≤ 1 %');
  }

  if (process.env.EXPLAIN_BENCH_RUNS === 'off') return;
  const home = tempDir('netbench-bench-explain-');
  const spec = join(home, 'rr.yaml');
  writeFileSync(
    spec,
    [
      'name: explain-bench',
      'hosts:',
      '  client: { cloud: local }',
      '  server: { cloud: local }',
      'benchmarks:',
      `  - { tool: netperf, client: client, server: server, tests: [TCP_RR], duration: ${SECONDS}, cpus: { client: 0, server: 1 } }`,
      'publish:',
      '  - type: json',
      '',
    ].join('\n'),
  );
  const arm = async (counters) => {
    const out = await cli(['run', spec, '--runs-dir', join(home, 'runs'), '--json'], { NETBENCH_HOME: home, NETBENCH_COUNTERS: counters ? 'on' : 'off' });
    const { runDir } = JSON.parse(out.stdout);
    const { samples } = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'));
    return samples.find((s) => s.metric === 'TCP_RR_Transaction_Rate').value;
  };
  const on = [];
  const off = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const counters of order) (counters ? on : off).push(await arm(counters));
  }
  line('load average (1 min) at end', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  line(`TCP_RR tx/s, counters on (${ROUNDS} rounds, median, range)`, `${Math.round(median(on))} (${Math.round(Math.min(...on))}–${Math.round(Math.max(...on))})`);
  line(`TCP_RR tx/s, counters off (${ROUNDS} rounds, median, range)`, `${Math.round(median(off))} (${Math.round(Math.min(...off))}–${Math.round(Math.max(...off))})`);
  const paired = on.map((v, i) => v / off[i]);
  line('on vs off: difference of medians · median paired ratio', `${((median(on) / median(off) - 1) * 100).toFixed(1)} % · ${((median(paired) - 1) * 100).toFixed(1)} %`);
}

/** `use(ns)` in a network namespace made for it (deleted after); undefined without the rights to make one. */
function inNamespace(use) {
  const ns = `nb-bench-${process.pid}`;
  try {
    execFileSync('ip', ['netns', 'add', ns], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  try {
    return use(ns);
  } finally {
    execFileSync('ip', ['netns', 'delete', ns], { stdio: 'ignore' });
  }
}

/** The controller's CPU (this process: spawning, reading, parsing) per per-interval read, over READS reads through a host. */
async function controllerMs() {
  const host = processHost({ id: 'bench', name: 'bench', cloud: 'local', internalIp: '127.0.0.1' });
  const before = process.cpuUsage();
  for (let i = 0; i < READS; i++) parseProcStat((await host.exec(CPU_READ_ARGV)).stdout);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / READS;
}
