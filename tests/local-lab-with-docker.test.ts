import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { docker } from './helpers/docker.js';
import { linksOf, namespacesOf } from './helpers/leftovers.js';
import { metric, onlyRunDir, readResults } from './helpers/results.js';

// dockerd loads br_netfilter (bridged frames then traverse iptables) and sets
// iptables' FORWARD policy to DROP: a naive namespace lab on a bridge in the
// machine's namespace goes silent. The local lab must keep working on such a
// machine: its bridge lives in a namespace of its own (the hub), whose
// netfilter is empty, so it needs no rule in the machine's FORWARD chain.
const daemon = await docker.version().then(
  () => true,
  () => false,
);
const bridgeNf = () => existsSync('/proc/sys/net/bridge/bridge-nf-call-iptables') && readFileSync('/proc/sys/net/bridge/bridge-nf-call-iptables', 'utf8').trim() === '1';
const forwardPolicy = () => /^-P FORWARD (\w+)/m.exec(execFileSync('iptables', ['-w', '-S', 'FORWARD'], { encoding: 'utf8' }))?.[1];
const ourRules = (runId: string) =>
  execFileSync('iptables', ['-w', '-S', 'FORWARD'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(`netbench:${runId}`));

describe.runIf(daemon && process.geteuid?.() === 0)('the local lab on a machine running dockerd', () => {
  it('runs ping, netperf and iperf3 between namespaces with FORWARD at DROP and bridge netfilter on, without touching FORWARD', async () => {
    // The conditions this test is about, as dockerd sets them at start (something may have changed them since).
    const policy = forwardPolicy();
    if (policy !== 'DROP') execFileSync('iptables', ['-w', '-P', 'FORWARD', 'DROP']);
    try {
      await measure();
    } finally {
      if (policy && policy !== 'DROP') execFileSync('iptables', ['-w', '-P', 'FORWARD', policy]);
    }
  });
});

/** The quickstart on the local lab, with the conditions set; what it left is checked. */
async function measure(): Promise<void> {
  expect(bridgeNf()).toBe(true);
  expect(forwardPolicy()).toBe('DROP');
  const home = tempHome();
  const runsDir = join(home, 'runs');
  const result = await runCli(
    [
      'run',
      join(repoRoot, 'examples/quickstart.yaml'),
      '--runs-dir',
      runsDir,
      '--set',
      'benchmarks.0.count=20',
      '--set',
      'benchmarks.1.duration=1',
      '--set',
      'benchmarks.2.duration=1',
    ],
    { env: { NETBENCH_HOME: home } },
  );
  expect(result.code, result.stderr).toBe(0);
  const { run, samples } = readResults(onlyRunDir(runsDir));
  expect(run.trials.every((t) => t.status === 'succeeded')).toBe(true);
  expect(metric(samples, 'Packet Loss', 'ping')[0]?.value).toBe(0);
  expect(metric(samples, 'TCP_STREAM_Throughput', 'netperf')[0]?.value).toBeGreaterThan(0);
  expect(namespacesOf(run.runId)).toEqual([]);
  expect(linksOf(run.runId.slice(-6))).toEqual([]);
  expect(ourRules(run.runId)).toEqual([]);
  // Nothing was added to the machine's firewall in the first place: the ledger has no rule.
  const ledger = readFileSync(join(onlyRunDir(runsDir), 'ledger.jsonl'), 'utf8');
  expect(ledger).not.toMatch(/"type":"firewall"/);
  expect(ledger).toMatch(/"type":"bridge","id":"nb[a-z0-9]{6}br","data":\{"runId":"[^"]+","netns":"nb-[^"]+-@hub"\}/);
  expect(forwardPolicy()).toBe('DROP');
}
