import { randomUUID } from 'node:crypto';
import type { LedgerEntry, PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { type IpFamily, peerFirewallBody } from './bodies.js';
import { classify, toNetbenchError } from './errors.js';
import { runTag } from './naming.js';
import { operationOf, waitForOperation } from './operations.js';
import { peerRanges } from './peer-ranges.js';
import { ids, parseId, resource, TYPES } from './resources.js';
import type { GcpRuntime } from './runtime.js';

/** The run's network and project, as provisioning recorded them. */
export interface LedgerNetwork {
  readonly project: string;
  /** `projects/P/global/networks/N`: the per-run VPC or the reused `network`. */
  readonly networkLink: string;
}

/**
 * The network the run's hosts are in, from this plugin's ledger lines alone:
 * every firewall rule provisioning made records its network (the only trace
 * of a reused `network`, which is not the run's resource); the per-run VPC's
 * own entry is the fallback.
 */
export function networkFromLedger(entries: readonly LedgerEntry[]): LedgerNetwork | undefined {
  const created = entries.filter((e) => e.phase === 'created');
  const rule = created.find((e) => e.resource.type === TYPES.firewall && typeof e.resource.data?.['network'] === 'string');
  const link = (rule?.resource.data?.['network'] as string | undefined) ?? created.find((e) => e.resource.type === TYPES.network)?.resource.id;
  return link ? { project: parseId(link).project, networkLink: link } : undefined;
}

/**
 * Let the run's hosts on other clouds (and static machines) reach this run's
 * GCE hosts: one INGRESS rule per address family (a rule holds IPv4 or IPv6
 * ranges, not both) in the run's network, allowing what the run's own hosts
 * allow each other (TCP, UDP, ICMP) from each peer address, to the run's
 * network tag. Each rule is in the ledger before its insert, so teardown and
 * `cleanup --all` delete it even in a reused network; a rule that already
 * exists (409, e.g. a retried call) is success.
 */
export async function admitPeersGcp(peers: readonly PeerHost[], ctx: ProvisionContext, runtime: GcpRuntime): Promise<void> {
  const ranges = peerRanges(peers);
  for (const s of ranges.skipped) ctx.log.debug(`not admitting ${s.address} of ${s.peer}: ${s.reason}`);
  const unreachable = peers.filter((p) => !ranges.admitted.includes(p.id));
  if (unreachable.length > 0) {
    ctx.log.warn(
      `gcp cannot admit ${unreachable.map((p) => `${p.id} (${p.addresses.join(', ') || 'no address'})`).join(', ')}: no routable address; add the public address its traffic leaves from to the gcp hosts' allowFrom`,
    );
  }
  const families = (['ipv4', 'ipv6'] as const).filter((f) => ranges[f].length > 0);
  if (families.length === 0) return;

  const network = networkFromLedger(ctx.ledger.entries);
  if (!network) throw new NetbenchError(`gcp cannot admit peers of run ${ctx.runId}: its ledger holds no network (no firewall rule or VPC was created)`);
  const clients = runtime.clients();
  const { project, networkLink } = network;
  const admit = async (family: IpFamily) => {
    const sources = ranges[family];
    const body = peerFirewallBody(ctx.runId, networkLink, family, sources, ranges.admitted);
    const id = ids.firewall(project, body.name!);
    await ctx.ledger.track(resource(TYPES.firewall, id, undefined, { network: networkLink, sourceRanges: sources, peers: ranges.admitted }), async () => {
      try {
        const op = operationOf(await clients.firewalls.insert({ requestId: randomUUID(), project, firewallResource: body }));
        await waitForOperation(clients, project, op, { signal: ctx.signal, timeoutMs: runtime.timing.operationTimeoutMs });
      } catch (error) {
        // The name carries the run id: an existing rule of that name is this run's.
        if (classify(error) === 'exists') {
          ctx.log.debug(`${id} already exists; keeping it`);
          return;
        }
        throw toNetbenchError(error, `creating firewall rule ${body.name}`);
      }
    });
    ctx.log.info(
      `gcp: admitted ${ranges.admitted.join(', ')} from ${sources.join(', ')} (tcp, udp, icmp) to hosts tagged ${runTag(ctx.runId)} in ${networkLink} (rule ${body.name})`,
    );
  };
  // Settle both before failing: nothing is still being created when we throw.
  await allOrFirstError(families.map(admit));
}
