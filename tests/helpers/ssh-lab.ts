// A local lab (namespaces on a bridge, sshd per host) made with the local
// plugin's API, for end-to-end runs of `cloud: static` specs over real SSH.
//
// The lab's bridge has no address in the root namespace, so neither this
// test process nor a CLI started from it can reach the hosts. The lab
// therefore gets one more namespace, `controller` (no sshd), on the same
// bridge: the CLI under test runs inside it (`ip netns exec`), exactly like
// netbench on a machine of the same network as its static hosts.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSshHost } from '@netbench/core';
import type { Host, HostRequest, Ledger, LedgerResource } from '@netbench/plugin-api';
import localPlugin, { bridgeName, hubName, type LocalHostConfig, namespaceName } from '@netbench/plugin-local';
import { type CliOptions, type CliResult, runCli } from './cli.js';

export interface SshLab {
  readonly runId: string;
  readonly runDir: string;
  readonly hosts: Readonly<Record<string, Host>>;
  netns(host: string): string;
  bridge(): string;
  /** The namespace the bridge lives in (attach another veth there). */
  hub(): string;
  /** sshd's log of a host (connections show as `Accepted publickey`). */
  sshdLog(host: string): string;
  acceptedLogins(host: string): number;
  /** Allow another public key to log in to a host's sshd. */
  authorize(host: string, publicKeyLine: string): void;
  /** Processes in a host's namespace besides its sshd (what a run left behind). */
  strayProcesses(host: string): string[];
  /** `--set` flags pointing spec host `specHost` at lab host `labHost` (address, port, key, known_hosts). */
  sets(specHost: string, labHost: string): string[];
  /** `netbench ARGS` inside the controller namespace. */
  cli(args: readonly string[], options?: CliOptions): Promise<CliResult>;
  teardown(): Promise<unknown[]>;
}

function labRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  return `${stamp}-${[...randomBytes(6)].map((b) => alphabet[b % 36]).join('')}`;
}

export async function startSshLab(hosts: Record<string, LocalHostConfig>): Promise<SshLab> {
  const runId = labRunId();
  const runDir = mkdtempSync(join(tmpdir(), `nbt-sshlab-${runId}-`));
  const resources: LedgerResource[] = [];
  const ledger: Ledger = {
    entries: [],
    async track(resource, create) {
      resources.push(resource);
      return create();
    },
    async created(resource) {
      resources.push(resource);
    },
  };
  const ctx = { runId, runDir, signal: AbortSignal.timeout(120_000), log: { debug() {}, info() {}, warn() {} } };
  const requests: HostRequest<LocalHostConfig>[] = Object.entries(hosts).map(([id, config]) => ({ id, name: id, cloud: 'local', config }));
  const teardown = async () => {
    const errors: unknown[] = [];
    const seen = new Set<string>();
    for (const resource of [...resources].reverse()) {
      const key = `${resource.type}\0${resource.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await localPlugin.teardown(resource, ctx).catch((error: unknown) => errors.push(error));
    }
    rmSync(runDir, { recursive: true, force: true });
    return errors;
  };
  let made: Host[];
  try {
    made = await localPlugin.provision(requests, { ...ctx, ledger, connectSsh: (o) => connectSshHost(o) });
  } catch (error) {
    await teardown();
    throw error;
  }
  const byName = Object.fromEntries(requests.map((r, i) => [r.id, made[i]!]));
  const hostDir = (host: string) => join(runDir, 'local', host);
  const sshdLog = (host: string) => readFileSync(join(hostDir(host), 'sshd.log'), 'utf8');
  return {
    runId,
    runDir,
    hosts: byName,
    netns: (host) => namespaceName(runId, host),
    bridge: () => bridgeName(runId),
    hub: () => hubName(runId),
    sshdLog,
    acceptedLogins: (host) =>
      sshdLog(host)
        .split('\n')
        .filter((line) => line.includes('Accepted publickey')).length,
    authorize: (host, line) => appendFileSync(join(hostDir(host), 'authorized_keys'), `${line.trim()}\n`),
    strayProcesses(host) {
      const pids = execFileSync('ip', ['netns', 'pids', namespaceName(runId, host)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
      return pids
        .map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
          } catch {
            return '';
          }
        })
        .filter((cmd) => cmd !== '' && !cmd.startsWith('/usr/sbin/sshd') && !cmd.startsWith('sshd:'));
    },
    sets(specHost, labHost) {
      const host = byName[labHost]!;
      const fields = { address: host.internalIp, port: host.labels.ssh_port, key: host.labels.ssh_key, knownHosts: host.labels.ssh_known_hosts };
      return Object.entries(fields).flatMap(([field, value]) => ['--set', `hosts.${specHost}.${field}=${value}`]);
    },
    cli: (args, options = {}) => runCli(args, { ...options, wrapper: ['ip', 'netns', 'exec', namespaceName(runId, 'controller')] }),
    teardown,
  };
}

const homes: string[] = [];

/** A fresh NETBENCH_HOME with its runs folder, for one CLI run (removed by `removeRunHomes`). */
export function runHome(prefix = 'nbt-ssh-home-'): { home: string; runsDir: string } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  homes.push(home);
  return { home, runsDir: join(home, 'runs') };
}

export function removeRunHomes(): void {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}
