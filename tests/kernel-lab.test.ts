// The lab's kernel features on a real Debian kernel (scripts/kernel-vm.sh:
// QEMU with TCG, this machine's files shared in): netem delay, jitter, loss
// and duplication, cake as a shaper, and bufferbloat through a deep tbf
// queue against fq_codel and cake — configured against measured. One boot
// and one netbench run for the whole group (tests/scenarios/kernel).
// Skipped, saying why, only where QEMU is not installed; CI (scripts/test.sh)
// installs it and sets NETBENCH_REQUIRE_KERNEL_VM=1, so there a missing QEMU fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample, TrialRecord } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const qemu = spawnSync('sh', ['-c', 'command -v qemu-system-x86_64'], { encoding: 'utf8' }).stdout.trim();
// Opt-in for now: in a fresh-clone CI run the guest's netbench run hung until the 1,200 s time-out (not yet understood).
const why = process.env.NETBENCH_KERNEL_VM_TESTS !== '1' ? 'set NETBENCH_KERNEL_VM_TESTS=1 to run the kernel group (it hung once in CI; see docs/kernel-lab.md)'
  : qemu === '' ? 'qemu-system-x86_64 is not installed (apt-get install qemu-system-x86; scripts/test.sh does)' : undefined;
if (why && process.env.NETBENCH_REQUIRE_KERNEL_VM === '1') throw new Error(`NETBENCH_REQUIRE_KERNEL_VM=1 but ${why}`);
if (why) console.warn(`kernel-lab tests skipped: ${why}`);

const spec = 'tests/scenarios/kernel/kernel-lab.yaml';
// The VM writes into the project folder (shared read-write); test-artifacts/ is not tracked.
const out = join(repoRoot, 'test-artifacts', `kernel-lab-${process.pid}`);
let trials: TrialRecord[] = [];
let samples: Sample[] = [];
let log = '';

beforeAll(() => {
  if (why) return;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const runs = join(out, 'runs');
  const inVm = 'uname -r > "$1/kernel-release"; exec scripts/netbench run "$2" --runs-dir "$1/runs" --progress plain';
  const vm = spawnSync(join(repoRoot, 'scripts/kernel-vm.sh'), ['run', '-t', '1200', '--', 'bash', '-c', inVm, 'kernel-lab', out, spec], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 26 });
  log = `${vm.stdout}\n${vm.stderr}`;
  const [runId] = existsSync(runs) ? readdirSync(runs) : [];
  if (!runId) throw new Error(`the kernel VM run made no run folder (exit ${vm.status}):\n${log.slice(-3000)}`);
  const results = JSON.parse(readFileSync(join(runs, runId, 'results.json'), 'utf8')) as { run: { trials: TrialRecord[] }; samples: Sample[] };
  ({ trials } = results.run);
  ({ samples } = results);
}, 1_300_000);
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
  it('runs on Debian\'s kernel in the VM, every trial succeeding', () => {
    expect(readFileSync(join(out, 'kernel-release'), 'utf8').trim()).toMatch(/^\d+\.\d+\.\d+-\d+-amd64$/);
    expect(trials.map((t) => `${t.benchmarkName}:${t.status}`)).toEqual(['netem', 'duplicate', 'cake-rate', 'bloat-tbf', 'bloat-fq_codel', 'bloat-cake'].map((n) => `${n}:succeeded`));
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

  it('cake shaping 20 Mbit/s: TCP goodput within 10 % of the rate less its headers (1448 of 1514 bytes)', () => {
    const goodput = value('cake-rate', 'Throughput');
    const expected = 20 * (1448 / 1514);
    expect(goodput).toBeGreaterThan(expected * 0.9);
    expect(goodput).toBeLessThan(expected * 1.1);
  });

  it('bufferbloat: under four uploads, fq_codel and cake keep the loaded RTT far below a deep tbf queue\'s', () => {
    const tbf = value('bloat-tbf', 'latency_loaded_p50');
    const fqCodel = value('bloat-fq_codel', 'latency_loaded_p50');
    const cake = value('bloat-cake', 'latency_loaded_p50');
    // The deep queue fills: tens of milliseconds at 20 Mbit/s (up to its 200 ms bound).
    expect(tbf).toBeGreaterThan(30);
    expect(fqCodel).toBeLessThan(tbf / 4);
    expect(cake).toBeLessThan(tbf / 4);
    for (const name of ['bloat-tbf', 'bloat-fq_codel', 'bloat-cake']) expect(value(name, 'goodput_total'), name).toBeGreaterThan(5);
  });
});
