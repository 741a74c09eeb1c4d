// The lab's kernel features on a real Debian kernel (scripts/kernel-vm.sh:
// QEMU with TCG, this machine's files shared in): netem delay, jitter, loss
// and duplication, cake as a shaper, and bufferbloat through a deep tbf
// queue against fq_codel and cake — configured against measured. One boot
// and one netbench run for the whole group (tests/scenarios/kernel).
// Skipped, saying why, unless opted in (below) or where QEMU is not installed; CI (scripts/test.sh)
// opts in, installs QEMU and sets NETBENCH_REQUIRE_KERNEL_VM=1, so there a missing QEMU fails.
// A stuck guest fails the group within minutes with its console's tail, never hangs it.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const qemu = spawnSync('sh', ['-c', 'command -v qemu-system-x86_64'], { encoding: 'utf8' }).stdout.trim();
// Opt-in (NETBENCH_KERNEL_VM_TESTS=1; CI leaves it out for time): a boot and a 13-trial run take 3-4 minutes.
const optedIn = process.env.NETBENCH_KERNEL_VM_TESTS === '1';
const why = !optedIn
  ? 'set NETBENCH_KERNEL_VM_TESTS=1 to run the kernel group (about 4 minutes; docs/kernel-lab.md)'
  : qemu === ''
    ? 'qemu-system-x86_64 is not installed (apt-get install qemu-system-x86; scripts/test.sh does)'
    : undefined;
// Asked for (opted in) where QEMU must be there (scripts/test.sh): a missing QEMU fails instead of skipping.
if (optedIn && why && process.env.NETBENCH_REQUIRE_KERNEL_VM === '1') throw new Error(`NETBENCH_REQUIRE_KERNEL_VM=1 but ${why}`);
if (why) console.warn(`kernel-lab tests skipped: ${why}`);

const spec = 'tests/scenarios/kernel/kernel-lab.yaml';
// The VM writes into the project folder (shared read-write); test-artifacts/ is not tracked.
const out = join(repoRoot, 'test-artifacts', `kernel-lab-${process.pid}`);
// The guest's console (the run's plain progress and the VM's heartbeats), kept after the test for CI's artifacts.
const consoleLog = join(repoRoot, 'test-artifacts', 'kernel-lab-console.log');
// The whole boot–run–poweroff takes 3–5 minutes on a loaded 2-vCPU machine; a stall is no line but heartbeats for this long
// (netbench prints a line per host, tool and trial; trials take 10-75 s, each bounded by the spec's trialTimeout of 140 s).
// 689 s in one run with the machine's load at 15 on 2 vCPUs: the budget leaves room, the stall limit catches a stuck guest.
const budgetSeconds = 1500;
const stallSeconds = 150;
const startedAt = Date.now();
let trials: TrialRecord[] = [];
let samples: Sample[] = [];
let log = '';

/** Boots the VM and runs the scenario in it, streaming its console to `consoleLog`; rejects with the log's tail on a stall. */
function runInVm(): Promise<number | null> {
  // Its own NETBENCH_HOME (the guest sees this machine's ~/.netbench under an overlay otherwise), on the guest's tmpfs: the
  // results store is SQLite, and on the 9p project share it failed to open ("disk I/O error"). The run folder stays on the share.
  const inVm = 'uname -r > "$1/kernel-release"; export NETBENCH_HOME=/tmp/netbench-home; exec scripts/netbench run "$2" --runs-dir "$1/runs" --progress plain';
  const vm = spawn(join(repoRoot, 'scripts/kernel-vm.sh'), ['run', '-t', String(budgetSeconds), '--', 'bash', '-c', inVm, 'kernel-lab', out, spec], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // QEMU at nice -10 (its session's autogroup; the caller's NETBENCH_VM_NICE wins): at nice 0, with this 2-vCPU machine's
    // load at 15, the guest's timers fired so late that netem's 40 ms read 51-53 ms and cake's 4 Mbit/s carried 2.0-2.7.
    env: { ...process.env, NETBENCH_VM_HEARTBEAT: '20', NETBENCH_VM_LOGLEVEL: '4', NETBENCH_VM_NICE: process.env.NETBENCH_VM_NICE ?? '-10' },
  });
  const file = createWriteStream(consoleLog);
  let last = Date.now();
  const partial = { stdout: '', stderr: '' };
  const take =
    (stream: 'stdout' | 'stderr') =>
    (chunk: Buffer): void => {
      // Progress is netbench's output (or the kernel's): heartbeats alone mean the guest lives but the run is stuck.
      // Whole lines only: the serial console hands a line over in pieces.
      const lines = (partial[stream] + chunk.toString('utf8')).split('\n');
      partial[stream] = lines.pop()!;
      if (lines.some((line) => line.trim() !== '' && !line.startsWith('kernel-vm heartbeat:'))) last = Date.now();
      log = (log + chunk.toString('utf8')).slice(-200_000);
      file.write(chunk);
    };
  vm.stdout.on('data', take('stdout'));
  vm.stderr.on('data', take('stderr'));
  return new Promise((resolve, reject) => {
    const watchdog = setInterval(() => {
      if (Date.now() - last < stallSeconds * 1000) return;
      clearInterval(watchdog);
      try {
        process.kill(-vm.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      reject(new Error(`the run in the kernel VM printed nothing for ${stallSeconds} s (heartbeats aside); stopped it. Console tail (${consoleLog}):\n${log.slice(-3000)}`));
    }, 5000);
    vm.on('error', (error) => {
      clearInterval(watchdog);
      reject(error);
    });
    vm.on('close', (code) => {
      clearInterval(watchdog);
      file.end();
      resolve(code);
    });
  });
}

beforeAll(
  async () => {
    if (why) return;
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const runs = join(out, 'runs');
    const code = await runInVm();
    const [runId] = existsSync(runs) ? readdirSync(runs) : [];
    // The run's events (every plugin call with its duration) beside the console, for CI's artifacts: the run folder goes after the test.
    if (runId && existsSync(join(runs, runId, 'events.jsonl'))) copyFileSync(join(runs, runId, 'events.jsonl'), join(repoRoot, 'test-artifacts', 'kernel-lab-events.jsonl'));
    if (!runId || !existsSync(join(runs, runId, 'results.json')))
      throw new Error(`the kernel VM run made no results (exit ${code}); console tail (${consoleLog}):\n${log.slice(-3000)}`);
    const results = JSON.parse(readFileSync(join(runs, runId, 'results.json'), 'utf8')) as { run: { trials: TrialRecord[] }; samples: Sample[] };
    ({ trials } = results.run);
    ({ samples } = results);
    // The group's wall time (boot, run, power-off), for docs/kernel-lab.md and CI's budget.
    console.log(`kernel-lab: the VM run took ${Math.round((Date.now() - startedAt) / 1000)} s (exit ${code})`);
  },
  (budgetSeconds + 60) * 1000,
);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The one sample of `metric` of the trial named `name` (its benchmark's name); for load trials, of the icmp probe. */
function value(name: string, metric: string): number {
  const trial = trials.find((t) => t.benchmarkName === name);
  expect(trial?.status, `${name}: ${trial?.error ?? 'no such trial'}\n${log.slice(-2000)}`).toBe('succeeded');
  const found = samples.filter((s) => s.trialId === trial!.id && s.metric === metric && (s.labels.probe === undefined || s.labels.probe === 'icmp'));
  expect(found, `${name} ${metric}`).toHaveLength(1);
  return found[0]!.value;
}

describe.skipIf(why !== undefined)('the lab on a real kernel (QEMU)', () => {
  it("runs on Debian's kernel in the VM, every trial succeeding", () => {
    expect(readFileSync(join(out, 'kernel-release'), 'utf8').trim()).toMatch(/^\d+\.\d+\.\d+-\d+-amd64$/);
    expect(trials.map((t) => `${t.benchmarkName}:${t.status}`)).toEqual(
      [
        'netem',
        'duplicate',
        'cake-rate',
        'cake-rate-10',
        'bloat-tbf',
        'bloat-fq_codel',
        'bloat-cake',
        'kernel-wireguard',
        'kernel-esp',
        'hping3-netem',
        'hping3-base',
        'pktgen-max',
        'pktgen-paced',
      ].map((n) => `${n}:succeeded`),
    );
  });

  it('netem: 20 ms ± 2 ms each way is a median RTT of 40 ms (±10 % + 3 ms); 1 % loss each way is ~2 % of 1000 pings', () => {
    expect(value('netem', 'Latency p50')).toBeGreaterThan(40 * 0.9 - 3);
    expect(value('netem', 'Latency p50')).toBeLessThan(40 * 1.1 + 3);
    // 1 − 0.99² = 1.99 %; three standard errors of a binomial share over 1000 pings: ± 1.3 %.
    expect(value('netem', 'Packet Loss')).toBeGreaterThan(0.6);
    expect(value('netem', 'Packet Loss')).toBeLessThan(3.4);
  });

  it('netem duplicate 5 % of 500 requests: ~25 duplicated replies (three standard errors: 10–40)', () => {
    const dups = value('duplicate', 'Duplicate Packets');
    expect(dups).toBeGreaterThanOrEqual(10);
    expect(dups).toBeLessThanOrEqual(40);
  });

  // The 10 Mbit/s shortfall (8.1-9.5 of 9.56 on a loaded host) fits a fixed lateness of ~0.2 ms per packet that cake
  // does not make up (TCG's timers fire late on a busy host); if so it shrinks with the packet rate: 4 Mbit/s (330
  // packets/s, 3 ms apart) should lose ~7 % at that lateness. A hypothesis, not yet measured (docs/kernel-lab.md).
  const perSecond = (name: string): string => {
    const trial = trials.find((t) => t.benchmarkName === name)!;
    return samples
      .filter((s) => s.trialId === trial.id && s.metric === 'Interval Throughput' && s.labels.omitted === false)
      .map((s) => s.value.toFixed(2))
      .join(', ');
  };
  it('cake shaping 4 Mbit/s for 15 s: TCP goodput within 10 % of the rate less its headers (1448 of 1514 bytes)', () => {
    const goodput = value('cake-rate', 'Throughput');
    const expected = 4 * (1448 / 1514);
    expect(goodput, `per-second goodput ${perSecond('cake-rate')}`).toBeGreaterThan(expected * 0.9);
    expect(goodput).toBeLessThan(expected * 1.1);
    const goodput10 = value('cake-rate-10', 'Throughput');
    console.log(
      `kernel-lab: cake 4 Mbit/s: ${goodput.toFixed(2)} of ${expected.toFixed(2)}; 10 Mbit/s: ${goodput10.toFixed(2)} of ${((10 * 1448) / 1514).toFixed(2)} (per second ${perSecond('cake-rate-10')})`,
    );
    // Shaped, not unlimited (the VM's veth alone carries several times more), and not far from the rate.
    expect(goodput10).toBeGreaterThan(10 * (1448 / 1514) * 0.7);
    expect(goodput10).toBeLessThan(10 * (1448 / 1514) * 1.1);
  });

  it("bufferbloat: under four uploads, fq_codel and cake keep the loaded RTT far below a deep tbf queue's", () => {
    const tbf = value('bloat-tbf', 'latency_loaded_p50');
    const fqCodel = value('bloat-fq_codel', 'latency_loaded_p50');
    const cake = value('bloat-cake', 'latency_loaded_p50');
    // The deep queue fills: tens of milliseconds at 20 Mbit/s (up to its 200 ms bound).
    expect(tbf).toBeGreaterThan(30);
    expect(fqCodel).toBeLessThan(tbf / 4);
    expect(cake).toBeLessThan(tbf / 4);
    for (const name of ['bloat-tbf', 'bloat-fq_codel', 'bloat-cake']) expect(value(name, 'goodput_total'), name).toBeGreaterThan(5);
  });

  it("kernel WireGuard and the kernel's ESP carry pings, every sample labelled with the kernel implementation", () => {
    for (const [name, tunnel] of [
      ['kernel-wireguard', 'kwg'],
      ['kernel-esp', 'kesp'],
    ] as const) {
      expect(value(name, 'Packet Loss'), name).toBe(0);
      // Unshaped namespaces: well under the 40 ms of the netem pair, even with the VM's bias and crypto in TCG.
      expect(value(name, 'Latency p50'), name).toBeLessThan(20);
      const trial = trials.find((t) => t.benchmarkName === name)!;
      const labels = samples.find((s) => s.trialId === trial.id && s.metric === 'Latency p50')?.labels;
      expect(labels, name).toMatchObject({ tunnel, tunnel_implementation: 'kernel', ip_type: `tunnel:${tunnel}` });
    }
  });

  // hping3 times each probe in user space (ping uses the kernel's timestamps): under TCG that is ~5 ms of its own (47.2 ms
  // over netem where ping read 42.1 in the same run), so netem's share is the RTT less hping3's over an unshaped pair.
  it("hping3: TCP SYN round trips through netem's 20 ms each way add 40 ms (±10 % + 3 ms) to an unshaped pair's, in hping3's 0.1 ms steps", () => {
    const p50 = value('hping3-netem', 'Latency p50');
    const base = value('hping3-base', 'Latency p50');
    console.log(
      `kernel-lab: hping3 over netem: p50 ${p50} ms, p90 ${value('hping3-netem', 'Latency p90')} ms, loss ${value('hping3-netem', 'Packet Loss')} %; unshaped p50 ${base} ms; ping over netem p50 ${value('netem', 'Latency p50')} ms`,
    );
    expect(p50).toBeGreaterThan(40 * 0.9 - 3);
    expect(base).toBeLessThan(20);
    expect(p50 - base).toBeGreaterThan(40 * 0.9 - 3);
    expect(p50 - base).toBeLessThan(40 * 1.1 + 3);
    // 1 % each way over 300 SYNs: 2 %, three standard errors ± 2.4 %.
    expect(value('hping3-netem', 'Packet Loss')).toBeLessThan(5);
  });

  it('pktgen: 64-byte frames at a plausible rate, each counted by the receiver; paced at 5000/s, sent at that rate', () => {
    for (const name of ['pktgen-max', 'pktgen-paced']) {
      const sent = value(name, 'Packets Sent');
      const received = value(name, 'Packets Received');
      console.log(
        `kernel-lab: ${name}: ${value(name, 'Packet Rate')} pps sent, ${received} of ${sent} received (${value(name, 'Received Packet Rate').toFixed(0)} pps), ${value(name, 'Receiver Drops')} dropped`,
      );
      // The receiver's rx_packets also count what else arrived meanwhile (ARP, IPv6 neighbour discovery): a few.
      expect(received, name).toBeGreaterThanOrEqual(sent * 0.99);
      expect(received, name).toBeLessThanOrEqual(sent + 20);
      expect(value(name, 'Packet Errors'), name).toBe(0);
    }
    expect(value('pktgen-max', 'Packets Sent')).toBe(100000);
    // TCG on a loaded 2-vCPU host sent 15-20 kpps over a veth; a real machine sends ~1 Mpps a core. Below 2000 the VM
    // barely ran; above 5 Mpps pktgen's figure is not a veth's.
    expect(value('pktgen-max', 'Packet Rate')).toBeGreaterThan(2000);
    expect(value('pktgen-max', 'Packet Rate')).toBeLessThan(5_000_000);
    // Paced: never faster than asked; late timers only slow it (pktgen, like cake, does not catch up).
    expect(value('pktgen-paced', 'Packet Rate')).toBeLessThanOrEqual(5000 * 1.01);
    expect(value('pktgen-paced', 'Packet Rate')).toBeGreaterThan(5000 * 0.7);
  });
});
