import { z } from '@netbench/plugin-api';

const hostName = z.string().min(1);
const distinct = (hosts: readonly string[]) => new Set(hosts).size === hosts.length;

/**
 * A benchmark's `flows:` block: several client/server pairs measured at once
 * in one synchronized trial (docs/flows.md). Host names are keys of `hosts`.
 */
export const flowsSchema = z.discriminatedUnion(
  'topology',
  [
    /** One client drives every server at once (PKB netperf_aggregate: packets per second). */
    z.strictObject({
      topology: z.literal('one-to-many'),
      client: hostName,
      servers: z.array(hostName).min(1, 'needs at least one server').refine(distinct, 'servers must be different hosts'),
    }),
    /** Every ordered pair of the hosts at once (PKB mesh_network). */
    z.strictObject({
      topology: z.literal('mesh'),
      hosts: z.array(hostName).min(2, 'a mesh needs at least two hosts').refine(distinct, 'hosts must be different'),
    }),
    /**
     * One host against every peer at once, the host the client of every flow;
     * the tool's tests are dealt to the peers in turn (with `tests: [TCP_STREAM,
     * TCP_MAERTS]` peer 1 receives, peer 2 sends, ...), as PKB
     * bidirectional_network does.
     */
    z.strictObject({
      topology: z.literal('bidirectional'),
      host: hostName,
      peers: z.array(hostName).min(1, 'needs at least one peer').refine(distinct, 'peers must be different hosts'),
    }),
    /** Explicit pairs, each a flow (optional label). */
    z.strictObject({
      topology: z.literal('pairs'),
      pairs: z
        .array(
          z.strictObject({
            client: hostName,
            server: hostName,
            label: z
              .string()
              .regex(/^[A-Za-z0-9_.>-]+$/, 'use letters, digits and _ . - > only')
              .optional(),
          }),
        )
        .min(1, 'needs at least one pair'),
    }),
  ],
  { error: 'expected topology one-to-many, mesh, bidirectional or pairs' },
);

export type FlowsSpec = z.output<typeof flowsSchema>;

/** One flow of a topology: host names of the spec, and its label. */
export interface FlowPair {
  readonly label: string;
  readonly client: string;
  readonly server: string;
  /** Where the pair comes from in the `flows` block, for error positions. */
  readonly path: readonly (string | number)[];
}

/** The flows a topology stands for, in a fixed order (the plan and the labels follow it). */
export function flowPairs(flows: FlowsSpec): FlowPair[] {
  const pair = (client: string, server: string, path: (string | number)[], label?: string): FlowPair => ({ label: label ?? `${client}->${server}`, client, server, path });
  switch (flows.topology) {
    case 'one-to-many':
      return flows.servers.map((server, i) => pair(flows.client, server, ['servers', i]));
    case 'mesh':
      return flows.hosts.flatMap((client, i) => flows.hosts.filter((server) => server !== client).map((server) => pair(client, server, ['hosts', i])));
    case 'bidirectional':
      return flows.peers.map((peer, i) => pair(flows.host, peer, ['peers', i]));
    case 'pairs':
      return flows.pairs.map((p, i) => pair(p.client, p.server, ['pairs', i], p.label));
  }
}
