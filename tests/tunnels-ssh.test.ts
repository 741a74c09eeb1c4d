import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './helpers/cli.js';
import { onlyRunDir, type Results, readResults } from './helpers/results.js';
import { removeRunHomes, runHome, type SshLab, startSshLab } from './helpers/ssh-lab.js';
import { canRunTunnels, namespaceTunnelState, tunnelLeftovers } from './helpers/tunnels.js';

// Tunnels between `cloud: static` hosts: every command goes over real SSH (the Host interface), as on cloud VMs.
describe.skipIf(!canRunTunnels())('tunnels between static hosts over SSH', () => {
  let lab: SshLab;
  let result: CliResult;
  let runDir: string;
  let results: Results;

  beforeAll(async () => {
    lab = await startSshLab({ controller: {}, a: { sshd: true }, b: { sshd: true } });
    const { home, runsDir } = runHome();
    result = await lab.cli(['run', join('tests/scenarios/tunnels/ssh.yaml'), '--runs-dir', runsDir, '--progress', 'none', ...lab.sets('a', 'a'), ...lab.sets('b', 'b')], {
      env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '' },
    });
    runDir = onlyRunDir(runsDir);
    results = readResults(runDir);
  }, 120_000);

  afterAll(async () => {
    removeRunHomes();
    expect(await lab?.teardown()).toEqual([]);
  });

  it('measures through each tunnel', () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const rate = (tunnel: string) => results.samples.find((s) => s.metric === 'TCP_RR_Transaction_Rate' && s.labels.tunnel === tunnel);
    for (const [tunnel, type] of [
      ['none', 'none'],
      ['ipsec', 'ipsec'],
      ['wg', 'wireguard'],
      ['ovpn', 'openvpn'],
    ] as const) {
      expect(rate(tunnel)?.value, tunnel).toBeGreaterThan(0);
      expect(rate(tunnel)?.labels).toMatchObject({ tunnel_type: type, client_cloud: 'static' });
    }
  });

  it('undid every end through the hosts, leaving no daemon, key or socket', () => {
    const ledger = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { plugin: string; phase: string; resource: { id: string; data?: { sameMachine?: boolean } } });
    const ends = ledger.filter((l) => l.plugin === 'tunnels');
    expect(
      ends
        .filter((l) => l.phase === 'deleted')
        .map((l) => l.resource.id)
        .sort(),
    ).toEqual(['ipsec-a', 'ipsec-b', 'ovpn-a', 'ovpn-b', 'wg-a', 'wg-b']);
    // Static hosts are not this machine as far as the ledger knows: cleanup could not reach them without a transport.
    expect(ends.every((l) => l.resource.data?.sameMachine === false)).toBe(true);
    expect(tunnelLeftovers(results.run.runId)).toEqual([]);
    expect(lab.strayProcesses('a')).toEqual([]);
    expect(lab.strayProcesses('b')).toEqual([]);
    // The hosts' namespaces outlive the run (like real machines): no interface, rule, route, SA or iptables rule of a tunnel is left in them.
    expect(namespaceTunnelState(lab.netns('a'))).toEqual([]);
    expect(namespaceTunnelState(lab.netns('b'))).toEqual([]);
  });
});
