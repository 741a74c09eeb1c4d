import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceName } from '@netbench/plugin-local';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { setupRequired } from './helpers/require-setup.js';
import { onlyRunDir, readEvents, readResults, waitFor } from './helpers/results.js';
import { canRunTunnels, filesContaining, tunnelIface, tunnelLeftovers, tunnelLinks, tunnelSecrets } from './helpers/tunnels.js';

// Real strongSwan (charon + kernel-libipsec), wireguard-go and OpenVPN between lab namespaces.
const spec = join(import.meta.dirname, 'scenarios/tunnels/spec.yaml');
const longSpec = join(import.meta.dirname, 'scenarios/tunnels/long.yaml');
const supported = canRunTunnels();
// Whether this kernel has the data path (the probe netbench runs, in a throwaway namespace).
const kernelHas = (type: 'wireguard') => type === 'wireguard' && spawnSync('unshare', ['--net', '--', 'ip', 'link', 'add', 'dev', 'nbprobe0', 'type', 'wireguard']).status === 0;

interface LedgerLine {
  plugin: string;
  phase: string;
  resource: { type: string; id: string };
}
const ledgerOf = (runDir: string): LedgerLine[] =>
  readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine);

it.runIf(setupRequired())('has the tunnel programs where set-up is required (CI): root, /dev/net/tun, wireguard-go, wg, openvpn, strongSwan', () => {
  expect(supported, 'tunnel tests cannot run: scripts/setup.sh installs wireguard-go, wireguard-tools, openvpn and strongSwan').toBe(true);
});

describe.skipIf(!supported)('tunnels on the lab', () => {
  it('measures the plain path and each tunnel in one run, labels every sample, and leaves nothing', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    // While the run measures, the tunnels exist: interfaces in the namespaces, keys private in RAM.
    const runDir = await waitFor(() => (existsSync(runsDir) ? safe(() => onlyRunDir(runsDir)) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started') ? true : undefined), 180_000, 'the first trial');
    const runId = runDir.split('/').pop()!;
    const during = tunnelLinks(namespacesOf(runId));
    const root = `/dev/shm/netbench-${runId}`;
    const rootMode = statSync(root).mode & 0o777;
    const keyMode = statSync(join(root, 'wg-a', 'private.key')).mode & 0o777;
    const pskMode = statSync(join(root, 'ipsec-b', 'swanctl.conf')).mode & 0o777;
    const secrets = tunnelSecrets(runId);
    expect(filesContaining(root, secrets).length).toBeGreaterThan(0); // the search finds them where they are meant to be
    const result = await done;
    void child;

    expect(result.code, result.stderr).toBe(0);
    expect(during.length).toBe(8); // one interface per end: ipsec0 and ipsec1 ×2, wireguard ×2, openvpn ×2
    expect(rootMode).toBe(0o700);
    expect(keyMode).toBe(0o600);
    expect(pskMode).toBe(0o600);

    const { run, samples } = readResults(runDir);
    expect(run.trials.every((t) => t.status === 'succeeded')).toBe(true);
    const stream = (tunnel: string) => samples.find((s) => s.metric === 'TCP_STREAM_Throughput' && s.labels.tunnel === tunnel);
    expect(stream('none')?.labels.tunnel_type).toBe('none');
    for (const [tunnel, type, cipher, mtu] of [
      ['ipsec', 'ipsec', 'aes128-sha256', 1400],
      ['wg', 'wireguard', 'chacha20poly1305', 1420],
      ['ovpn', 'openvpn', 'AES-128-GCM', 1380],
    ] as const) {
      const sample = stream(tunnel);
      expect(sample?.value, tunnel).toBeGreaterThan(0);
      expect(sample?.labels).toMatchObject({ tunnel_type: type, tunnel_cipher: cipher, tunnel_mtu: mtu, ip_type: `tunnel:${tunnel}` });
      expect(['kernel', 'userspace']).toContain(sample?.labels.tunnel_implementation);
    }
    // A second IPsec tunnel between the same hosts, on its own ports: IKEv1 with AES-GCM ESP.
    const ikev1 = samples.find((s) => s.metric === 'TCP_RR_Transaction_Rate' && s.labels.tunnel === 'ikev1');
    expect(ikev1?.value).toBeGreaterThan(0);
    expect(ikev1?.labels).toMatchObject({ tunnel_type: 'ipsec', tunnel_ike: 'v1', tunnel_cipher: 'aes256gcm16', ip_type: 'tunnel:ikev1' });
    // Ledger: each end's intent before anything existed, then created, then deleted.
    const ledger = ledgerOf(runDir).filter((l) => l.plugin === 'tunnels');
    for (const id of ['ipsec-a', 'ipsec-b', 'wg-a', 'wg-b', 'ovpn-a', 'ovpn-b', 'ikev1-a', 'ikev1-b']) {
      expect(
        ledger.filter((l) => l.resource.id === id).map((l) => l.phase),
        id,
      ).toEqual(['intent', 'created', 'deleted']);
    }
    // No key material in anything the run keeps (results, spec, events, ledger, raw outputs) nor in the home folder.
    expect(secrets.length).toBeGreaterThanOrEqual(2 + 4 + 2); // 2 WireGuard keys, each PSK in both swanctl.conf, the PEM body lines of both TLS keys
    expect(filesContaining(home, secrets)).toEqual([]);
    for (const file of ['results.json', 'events.jsonl', 'ledger.jsonl']) expect(readFileSync(join(runDir, file), 'utf8')).not.toMatch(/PRIVATE KEY|secret = 0x/);
    expect(tunnelLeftovers(runId, ['ipsec', 'wg', 'ovpn', 'ikev1'])).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });

  it('a tunnel that cannot come up fails prepare (exit 5), and what was set up is undone', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', join(import.meta.dirname, 'scenarios/tunnels/bad-proposal.yaml'), '--runs-dir', runsDir, '--progress', 'none'], {
      env: { NETBENCH_HOME: home },
    });
    expect(result.code, result.stderr).toBe(5);
    const runDir = onlyRunDir(runsDir);
    const errors = readEvents(runDir).flatMap((e) => (e.type === 'error' ? [e.message] : []));
    expect(errors.join('\n')).toMatch(/tunnel ipsec on [ab]: env STRONGSWAN_CONF=\S+ swanctl --load-all failed .*esp_proposals/);
    const runId = runDir.split('/').pop()!;
    const ledger = ledgerOf(runDir).filter((l) => l.plugin === 'tunnels');
    // The WireGuard tunnel was up, IPsec only half: both are undone.
    expect(ledger.filter((l) => l.resource.id === 'wg-a').map((l) => l.phase)).toEqual(['intent', 'created', 'deleted']);
    expect(ledger.filter((l) => l.resource.id === 'ipsec-a').map((l) => l.phase)).toEqual(['intent', 'deleted']);
    expect(tunnelLeftovers(runId)).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });

  it.skipIf(kernelHas('wireguard'))('implementation: kernel on a kernel without WireGuard is refused in prepare, before anything is made', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const result = await runCli(['run', join(import.meta.dirname, 'scenarios/tunnels/kernel.yaml'), '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(5);
    const runDir = onlyRunDir(runsDir);
    const errors = readEvents(runDir).flatMap((e) => (e.type === 'error' ? [e.message] : []));
    const refusal = /tunnel wg: implementation: kernel asked for, but on host [ab] this kernel has no WireGuard module; use implementation: userspace \(or auto\)/;
    expect(errors.join('\n')).toMatch(refusal);
    // Said on stderr too, though --progress none draws no progress.
    expect(result.stderr).toMatch(new RegExp(`^error: ${refusal.source}$`, 'm'));
    // Nothing of the tunnel was ever made: no ledger entry, no key directory.
    expect(ledgerOf(runDir).filter((l) => l.plugin === 'tunnels')).toEqual([]);
    const runId = runDir.split('/').pop()!;
    expect(tunnelLeftovers(runId, ['wg'])).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });

  it('SIGINT while measuring through a tunnel tears every tunnel down', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', longSpec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    const runDir = await waitFor(() => (existsSync(runsDir) ? safe(() => onlyRunDir(runsDir)) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started') ? true : undefined), 180_000, 'the trial');
    const runId = runDir.split('/').pop()!;
    expect(tunnelLeftovers(runId).length).toBeGreaterThan(0); // really running
    // Each tunnel really exists while the trial runs: an established IPsec SA, a WireGuard handshake, OpenVPN's TLS done.
    const root = `/dev/shm/netbench-${runId}`;
    const sas = spawnSync('swanctl', ['--list-sas', '--uri', `unix://${root}/ipsec-a/charon.vici`], {
      encoding: 'utf8',
      env: { ...process.env, STRONGSWAN_CONF: `${root}/ipsec-a/strongswan.conf` },
    });
    expect(sas.stdout, sas.stderr).toMatch(/ESTABLISHED[\s\S]*INSTALLED, TUNNEL/);
    const handshake = execFileSync('ip', ['netns', 'exec', namespaceName(runId, 'a'), 'wg', 'show', tunnelIface(runId, 'w', 'wg', 'a'), 'latest-handshakes'], { encoding: 'utf8' });
    expect(Number(handshake.trim().split(/\s+/)[1])).toBeGreaterThan(0);
    expect(readFileSync(join(root, 'ovpn-a', 'openvpn.log'), 'utf8')).toContain('Initialization Sequence Completed');
    const secrets = tunnelSecrets(runId);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(tunnelLeftovers(runId)).toEqual([]);
    expect(filesContaining(home, secrets)).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });

  it('kill -9 while measuring, then `netbench cleanup` undoes every tunnel end', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', longSpec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    const runDir = await waitFor(() => (existsSync(runsDir) ? safe(() => onlyRunDir(runsDir)) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started') ? true : undefined), 180_000, 'the trial');
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    expect(tunnelLeftovers(runId).length).toBeGreaterThan(0); // really left behind
    const cleanup = await runCli(['cleanup', runId, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const report = JSON.parse(cleanup.stdout) as { deleted: { type: string; id: string }[]; failed: unknown[] };
    expect(report.failed).toEqual([]);
    expect(
      report.deleted
        .filter((r) => r.type === 'tunnel-endpoint')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['ipsec-a', 'ipsec-b', 'ovpn-a', 'ovpn-b', 'wg-a', 'wg-b']);
    expect(tunnelLeftovers(runId)).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });

  it('kill -9, run folder gone: `netbench cleanup --all` still finds the tunnel ends by their directory', async () => {
    const home = tempHome();
    const runsDir = join(home, 'runs');
    const { child, done } = startCli(['run', longSpec, '--runs-dir', runsDir, '--progress', 'none'], { env: { NETBENCH_HOME: home } });
    const runDir = await waitFor(() => (existsSync(runsDir) ? safe(() => onlyRunDir(runsDir)) : undefined), 60_000, 'the run folder');
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started') ? true : undefined), 180_000, 'the trial');
    child.kill('SIGKILL');
    await done;
    const runId = runDir.split('/').pop()!;
    rmSync(runDir, { recursive: true, force: true });
    expect(tunnelLeftovers(runId).length).toBeGreaterThan(0);
    const cleanup = await runCli(['cleanup', '--all', '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const report = JSON.parse(cleanup.stdout) as { deleted: { type: string; id: string; data?: { runId?: string } }[] };
    expect(
      report.deleted
        .filter((r) => r.type === 'tunnel-endpoint' && r.data?.runId === runId)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['ipsec-a', 'ipsec-b', 'ovpn-a', 'ovpn-b', 'wg-a', 'wg-b']);
    expect(tunnelLeftovers(runId)).toEqual([]);
    expect(namespacesOf(runId)).toEqual([]);
  });
});

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
