import type { Host, LedgerFile, LedgerResource } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { teardownArgv } from './commands.js';
import { endpointData, type RunningTunnel, TUNNELS_LEDGER } from './running-tunnel.js';

const UNDO_TIMEOUT_MS = 30_000;

/**
 * Undo both ends of a tunnel through their hosts (daemons, interfaces, keys),
 * second end first; each undone end is marked `deleted` in the ledger. Every
 * end is attempted; resolves to the errors.
 */
export async function tunnelDown(running: RunningTunnel, hosts: ReadonlyMap<string, Host>, ledger: LedgerFile): Promise<string[]> {
  const errors: string[] = [];
  for (const resource of [...running.resources].reverse()) {
    const host = resource.host ? hosts.get(resource.host) : undefined;
    try {
      if (!host) throw new Error(`host ${resource.host} is gone`);
      await undoEndpoint(resource, (argv) => host.exec(argv, { timeoutMs: UNDO_TIMEOUT_MS }));
      await ledger.append(TUNNELS_LEDGER, 'deleted', resource).catch(() => {});
    } catch (error) {
      errors.push(`tunnel ${running.tunnel.name}: could not undo its end on ${resource.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return errors;
}

type Runner = (argv: readonly string[]) => Promise<{ code: number | null; stderr: string }>;

async function undoEndpoint(resource: LedgerResource, run: Runner): Promise<void> {
  const data = endpointData(resource);
  if (!data) throw new Error(`ledger entry ${resource.id} does not describe a tunnel end`);
  const result = await run(teardownArgv(data));
  if (result.code !== 0) throw new Error(`undo failed (exit ${result.code}): ${result.stderr.trim()}`);
}

/**
 * What `teardown`/`netbench cleanup` use for a `tunnels` ledger entry no run
 * undid (a crash, kill -9). An end on this machine (the local lab) is undone
 * here: its daemons are stopped by pid file, its keys removed. An end on a
 * remote host cannot be reached from the ledger alone: the error says so (a
 * cloud VM's deletion takes the tunnel with it; a static host keeps running it).
 */
export const tunnelsCleaner = {
  name: TUNNELS_LEDGER,
  async teardown(resource: LedgerResource): Promise<void> {
    const data = endpointData(resource);
    if (!data) throw new Error(`ledger entry ${resource.id} does not describe a tunnel end`);
    if (!data.sameMachine) {
      throw new Error(
        `tunnel ${data.tunnel} end on host ${resource.host} is on another machine; stop it there: kill the daemons whose pid files are in ${data.dir}, then rm -rf ${data.dir}`,
      );
    }
    await undoEndpoint(resource, (argv) => runCommand(argv, { timeoutMs: UNDO_TIMEOUT_MS }));
  },
};
