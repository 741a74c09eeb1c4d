import type { SecurityRule } from '@azure/arm-network';
import type { LedgerEntry, PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, UnsupportedError } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { PRIORITY, peerRuleBody } from './bodies.js';
import { toNetbenchError } from './errors.js';
import { untilDone } from './lro.js';
import { resourceName } from './naming.js';
import { peerSources } from './peer-sources.js';
import { parseGroup, TYPES } from './resources.js';
import type { AzureRuntime } from './runtime.js';

/** A network security group of the run, as its ledger entry describes it. */
export interface RunNsg {
  readonly id: string;
  readonly subscriptionId: string;
  readonly group: string;
  readonly name: string;
  readonly location: string;
  /** The application security group every NIC of the location joins: the rules' destination. */
  readonly asgId: string;
}

/** The run's security groups, one per location, from the ledger lines of the NSGs that were created. */
export function runNsgs(entries: readonly LedgerEntry[]): RunNsg[] {
  const found = new Map<string, RunNsg>();
  for (const entry of entries) {
    const { type, id, data } = entry.resource;
    if (type !== TYPES.nsg || entry.phase !== 'created') continue;
    const asgId = data?.['asgId'];
    if (typeof asgId !== 'string') throw new NetbenchError(`the ledger entry of network security group ${id} names no application security group`);
    const { subscriptionId, group } = parseGroup(id);
    found.set(id.toLowerCase(), { id, subscriptionId, group, name: id.split('/').at(-1)!, location: String(data?.['location'] ?? ''), asgId });
  }
  return [...found.values()];
}

/** The first priority from `PRIORITY.peers` that no rule of the group uses, below the deny rule. */
export function freePriority(taken: ReadonlySet<number>): number {
  for (let p: number = PRIORITY.peers; p < PRIORITY.denyVnet; p++) if (!taken.has(p)) return p;
  throw new NetbenchError(`no free security rule priority between ${PRIORITY.peers} and ${PRIORITY.denyVnet}`);
}

function admitError(error: unknown, what: string): unknown {
  if (error instanceof NetbenchError) return error; // a deadline, already worded
  const mapped = toNetbenchError(error, what);
  if (mapped !== error) return mapped;
  const e = error as { code?: unknown; statusCode?: unknown };
  const message = `${what}: ${error instanceof Error ? error.message : String(error)}`;
  if (e?.code === 'AuthorizationFailed' || e?.statusCode === 403) {
    return new UnsupportedError(
      `${message} — the identity needs Microsoft.Network/networkSecurityGroups/read and …/securityRules/write (e.g. Network Contributor) on the run's resource group`,
      { cause: error },
    );
  }
  return new NetbenchError(message, { cause: error });
}

/**
 * Let the run's hosts on other clouds in: per location, one rule in the run's
 * security group (found from the ledger) opening what the run's own hosts
 * have between them — every protocol and port — to the location's
 * application security group, from the peers' addresses (/32, /128; a
 * second rule for IPv6). Rules are named after the run, take a free priority
 * (a rule of the same name keeps its own and its sources: calling again
 * only adds), are PUT (idempotent) and followed to the end of the operation,
 * and are in the ledger before the PUT so teardown deletes them.
 */
export async function admitAzurePeers(peers: readonly PeerHost[], ctx: ProvisionContext, runtime: AzureRuntime): Promise<void> {
  const sources = peerSources(peers);
  for (const s of sources.skipped) ctx.log.info(`azure: not admitting ${s.address} of ${s.peer}: ${s.reason}`);
  if (sources.v4.length === 0 && sources.v6.length === 0) {
    ctx.log.info('azure: no peer address to admit');
    return;
  }
  const nsgs = runNsgs(ctx.ledger.entries);
  if (nsgs.length === 0) throw new NetbenchError(`no network security group of run ${ctx.runId} in the ledger: nothing to admit the peers to`);
  const families = [
    { name: resourceName(ctx.runId, 'peers'), prefixes: sources.v4 },
    { name: resourceName(ctx.runId, 'peers-v6'), prefixes: sources.v6 },
  ].filter((f) => f.prefixes.length > 0);
  const who = peers.map((p) => `${p.id} (${p.cloud})`).join(', ');
  const timing = { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs, pollMs: runtime.timing.pollMs };

  await allOrFirstError(
    nsgs.map(async (nsg) => {
      const network = runtime.clients(nsg.subscriptionId).network;
      const what = `admitting peers to network security group ${nsg.name}`;
      let rules: SecurityRule[];
      try {
        rules = (await network.networkSecurityGroups.get(nsg.group, nsg.name, { abortSignal: ctx.signal })).securityRules ?? [];
      } catch (error) {
        throw admitError(error, what);
      }
      const taken = new Set(rules.flatMap((r) => (r.priority !== undefined ? [r.priority] : [])));
      // One after the other: a security group takes one update at a time.
      for (const family of families) {
        const existing = rules.find((r) => r.name?.toLowerCase() === family.name.toLowerCase());
        const priority = existing?.priority ?? freePriority(taken);
        taken.add(priority);
        const prefixes = [...new Set([...(existing?.sourceAddressPrefixes ?? []), ...family.prefixes])];
        const body = peerRuleBody({ asgId: nsg.asgId, sources: prefixes, priority, description: `netbench run ${ctx.runId}: its hosts on other clouds` });
        const resource = { type: TYPES.nsgRule, id: `${nsg.id}/securityRules/${family.name}`, data: { location: nsg.location } };
        try {
          await ctx.ledger.track(resource, () =>
            untilDone(`security rule ${family.name}`, (o) => network.securityRules.createOrUpdate(nsg.group, nsg.name, family.name, body, o), timing),
          );
        } catch (error) {
          throw admitError(error, what);
        }
        ctx.log.info(`azure: admitted ${family.prefixes.join(', ')} (${who}) to ${nsg.name}: rule ${family.name}, priority ${priority}`);
      }
    }),
  );
}
