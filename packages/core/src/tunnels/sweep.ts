import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';
import { parseRunIdTime } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { teardownArgv } from './commands.js';
import { endpointIface } from './endpoint.js';
import { liveRunPid } from '../run-id/run-lock.js';
import { ENDPOINT_RESOURCE } from './running-tunnel.js';
import type { ResolvedTunnel } from './tunnel-schema.js';
import { wireguardSocket } from './wireguard.js';

const SHM = '/dev/shm';
const ROOT_RE = /^netbench-(\d{8}-\d{6}-[a-z0-9]+)$/;
const END_RE = /^([A-Za-z0-9_-]+)-([ab])$/;

export interface SweepFilter {
  readonly excludeRunIds: readonly string[];
  readonly olderThanMs?: number;
  readonly dryRun?: boolean;
}

/**
 * `netbench cleanup --all`: tunnel ends on this machine of runs whose folder
 * (and so ledger) is not at hand, found by their directory
 * `/dev/shm/netbench-<runId>/<tunnel>-<a|b>`: daemons stopped by pid file,
 * WireGuard sockets and keys removed. Runs still alive are excluded by id,
 * and so is every end whose `run.lock` names a live process here (a run from
 * another runs folder: its folder's lock is not at hand, the end's copy is).
 */
export async function sweepTunnelEnds(filter: SweepFilter, shm = SHM): Promise<{ deleted: LedgerResource[]; failed: { resource: LedgerResource; error: string }[] }> {
  const outcome = { deleted: [] as LedgerResource[], failed: [] as { resource: LedgerResource; error: string }[] };
  const roots = existsSync(shm) ? await readdir(shm) : [];
  for (const root of roots) {
    const runId = ROOT_RE.exec(root)?.[1];
    if (!runId || filter.excludeRunIds.includes(runId)) continue;
    const started = parseRunIdTime(runId);
    if (filter.olderThanMs !== undefined && (!started || started.getTime() > Date.now() - filter.olderThanMs)) continue;
    for (const end of await readdir(`${shm}/${root}`).catch(() => [] as string[])) {
      const match = END_RE.exec(end);
      if (!match) continue;
      const dir = `${shm}/${root}/${end}`;
      // A run still going from another runs folder on this machine (its process alive): not a leftover.
      if ((await liveRunPid(dir)) !== undefined) continue;
      const files = await readdir(dir).catch(() => [] as string[]);
      const type = files.includes('wireguard-go.pid') || files.includes('private.key') ? 'wireguard' : files.includes('charon.pid') ? 'ipsec' : 'openvpn';
      const iface = endpointIface(runId, { name: match[1]!, type } as Pick<ResolvedTunnel, 'name' | 'type'> as ResolvedTunnel, match[2] === 'a' ? 0 : 1);
      const resource: LedgerResource = { type: ENDPOINT_RESOURCE, id: `${match[1]}-${match[2]}`, data: { runId, dir } };
      if (filter.dryRun) {
        outcome.deleted.push(resource);
        continue;
      }
      const result = await runCommand(teardownArgv({ dir, iface, kernelLink: false, ...(type === 'wireguard' ? { socket: wireguardSocket(iface) } : {}) }), { timeoutMs: 30_000 });
      if (result.code === 0) outcome.deleted.push(resource);
      else outcome.failed.push({ resource, error: result.stderr.trim() || `exit ${result.code}` });
    }
  }
  return outcome;
}

