import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './helpers/cli.js';
import { metric, onlyRunDir, type Results, readResults } from './helpers/results.js';
import { removeRunHomes, runHome, type SshLab, startSshLab } from './helpers/ssh-lab.js';

// Two labs on two bridges: `front` (controller + bastion) and `back` (target).
// The bastion gets a second interface on the back bridge, so the target is
// reachable from the controller only through the bastion.
describe('static hosts through a jump host (bastion)', () => {
  let front: SshLab;
  let back: SshLab;
  const veth = `nbtsj${process.pid % 100000}`;
  const bastionBack = '10.214.7.200';
  let result: CliResult;
  let results: Results;
  let bastionLogins = 0;

  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
  const jumpSets = () => [
    '--set',
    `hosts.server.jump.address=${front.hosts.bastion!.internalIp}`,
    '--set',
    `hosts.server.jump.key=${front.hosts.bastion!.labels.ssh_key}`,
    '--set',
    `hosts.server.jump.knownHosts=${front.hosts.bastion!.labels.ssh_known_hosts}`,
  ];

  beforeAll(async () => {
    front = await startSshLab({ controller: {}, bastion: { sshd: true } });
    back = await startSshLab({ target: { sshd: true, subnet: '10.214.7.0/24', address: '10.214.7.1' } });
    // The back lab's bridge lives in its hub namespace: the bastion's second leg is plugged in there.
    ip('-n', back.hub(), 'link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth1', 'netns', front.netns('bastion'));
    ip('-n', back.hub(), 'link', 'set', 'dev', veth, 'master', back.bridge());
    ip('-n', back.hub(), 'link', 'set', 'dev', veth, 'up');
    ip('-n', front.netns('bastion'), 'addr', 'add', `${bastionBack}/24`, 'dev', 'eth1');
    ip('-n', front.netns('bastion'), 'link', 'set', 'dev', 'eth1', 'up');
    const { home, runsDir } = runHome();
    result = await front.cli(
      [
        'run',
        'tests/scenarios/ssh/jump/spec.yaml',
        '--runs-dir',
        runsDir,
        '--progress',
        'plain',
        ...front.sets('bastion', 'bastion'),
        '--set',
        `hosts.bastion.internalAddress=${bastionBack}`,
        ...back.sets('server', 'target'),
        ...jumpSets(),
      ],
      { env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '' } },
    );
    results = readResults(onlyRunDir(runsDir));
    bastionLogins = front.acceptedLogins('bastion');
  });

  afterAll(async () => {
    removeRunHomes();
    try {
      ip('-n', back.hub(), 'link', 'del', veth);
    } catch {
      /* gone with the namespace */
    }
    expect([...((await front?.teardown()) ?? []), ...((await back?.teardown()) ?? [])]).toEqual([]);
  });

  it('the target cannot be reached from the controller directly', async () => {
    const { home, runsDir } = runHome();
    const direct = await front.cli(
      [
        'run',
        'tests/scenarios/ssh/pair/spec.yaml',
        '--runs-dir',
        runsDir,
        '--progress',
        'plain',
        ...front.sets('client', 'bastion'),
        ...back.sets('server', 'target'),
        '--set',
        'hosts.server.connectRetry={attempts: 1}',
      ],
      { env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '' } },
    );
    expect(direct.code).toBe(5);
    expect(direct.stderr).toMatch(/host server \(10\.214\.7\.1:22\) unreachable after 1 attempt over \d+\.\d s: .*ENETUNREACH/);
  });

  it('runs ping and netperf to the target through the bastion', () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(results.run.trials.map((t) => `${t.tool}:${t.status}`).sort()).toEqual(['netperf:succeeded', 'ping:succeeded', 'ping:succeeded']);
    expect(metric(results.samples, 'TCP_RR_Latency_p50', 'netperf')[0]!.value).toBeGreaterThan(1);
    const server = results.run.hosts.find((h) => h.id === 'server')!;
    expect(server).toMatchObject({ cloud: 'static', internalIp: '10.214.7.1', labels: { host_key_verification: 'known-hosts' } });
  });

  it('the target saw one connection, coming from the bastion', () => {
    expect(back.acceptedLogins('target')).toBe(1);
    expect(back.sshdLog('target')).toMatch(new RegExp(`Accepted publickey for root from ${bastionBack.replaceAll('.', '\\.')} `));
    // One connection for the bastion as a host of the run, one to carry the target's.
    expect(bastionLogins).toBe(2);
    expect(front.strayProcesses('bastion')).toEqual([]);
    expect(back.strayProcesses('target')).toEqual([]);
  });
});
