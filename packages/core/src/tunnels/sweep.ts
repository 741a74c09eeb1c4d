import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { LedgerResource } from '@netbench/plugin-api';
import { parseRunIdTime } from '@netbench/plugin-api';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { teardownArgv } from './commands.js';
import { endpointIface } from './endpoint.js';
import { inUseBy, liveRunPid } from '../run-id/run-lock.js';
import { ENDPOINT_RESOURCE } from './running-tunnel.js';
import type { ResolvedTunnel } from './tunnel-schema.js';
import { wireguardSocket } from './wireguard.js';

const SHM = '/dev/shm';
const ROOT_RE = /^netbench-(\d{8}-\d{6}-[a-z0-9]+)$/;
const END_RE = /^([A-Za-z0-9_-]+)-([ab])$/;

export interface SweepOutcome {
  readonly deleted: LedgerResource[];
  readonly failed: { resource: LedgerResource; error: string }[];
  /** Ends of runs still alive, left alone, with why. */
  readonly spared: { resource: LedgerResource; reason: string }[];
}

export interface SweepFilter {
  readonly excludeRunIds: readonly string[];
  /** Pids of the excluded runs, for the report. */
  readonly livePids?: ReadonlyMap<string, number>;
  readonly olderThanMs?: number;
  readonly dryRun?: boolean;
}

/**
 * `netbench cleanup --all`: tunnel ends on this machine of runs whose folder
 * (and so ledger) is not at hand, found by their directory
 * `/dev/shm/netbench-<runId>/<tunnel>-<a|b>`: daemons stopped by pid file,
 * WireGuard sockets and keys removed. Runs still alive (by id: the caller
 * found them by their locks, whatever their runs folder) and every end whose
 * own copy of `run.lock` names a live process are spared and reported.
 */
export async function sweepTunnelEnds(filter: SweepFilter, shm = SHM): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { deleted: [], failed: [], spared: [] };
  const roots = existsSync(shm) ? await readdir(shm) : [];
  for (const root of roots) {
    const runId = ROOT_RE.exec(root)?.[1];
    if (!runId) continue;
    const excluded = filter.excludeRunIds.includes(runId);
    const started = parseRunIdTime(runId);
    if (!excluded && filter.olderThanMs !== undefined && (!started || started.getTime() > Date.now() - filter.olderThanMs)) continue;
    for (const end of await readdir(`${shm}/${root}`).catch(() => [] as string[])) {
      const match = END_RE.exec(end);
      if (!match) continue;
      const dir = `${shm}/${root}/${end}`;
      const resource: LedgerResource = { type: ENDPOINT_RESOURCE, id: `${match[1]}-${match[2]}`, data: { runId, dir } };
      // A run still going (its process alive, whatever its runs folder): not a leftover.
      const pid = excluded ? filter.livePids?.get(runId) : await liveRunPid(dir);
      if (excluded || pid !== undefined) {
        outcome.spared.push({ resource, reason: inUseBy(runId, pid) });
        continue;
      }
      const files = await readdir(dir).catch(() => [] as string[]);
      const type = files.includes('wireguard-go.pid') || files.includes('private.key') ? 'wireguard' : files.includes('charon.pid') ? 'ipsec' : 'openvpn';
      const iface = endpointIface(runId, { name: match[1]!, type } as Pick<ResolvedTunnel, 'name' | 'type'> as ResolvedTunnel, match[2] === 'a' ? 0 : 1);
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

