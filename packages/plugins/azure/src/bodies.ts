import type { NetworkSecurityGroup, SecurityRule } from '@azure/arm-network';

/** Why each rule exists, by priority (lower wins). */
export const PRIORITY = { ssh: 100, sameLocation: 110, otherLocations: 120, external: 130, peers: 140, denyVnet: 4000 } as const;

const rule = (name: string, priority: number, fields: Partial<SecurityRule>): SecurityRule => ({
  name,
  protocol: '*',
  sourcePortRange: '*',
  destinationPortRange: '*',
  access: 'Allow',
  direction: 'Inbound',
  priority,
  ...fields,
});

export interface NsgInputs {
  readonly location: string;
  readonly tags: Record<string, string>;
  readonly sshFrom: readonly string[];
  /** The location's application security group: the run's hosts there. */
  readonly asgId: string;
  /** Address spaces of the run's VNets in other locations (peered). */
  readonly otherPrefixes: readonly string[];
  /** The run's public addresses (/32) and `allowFrom` ranges. */
  readonly externalSources: readonly string[];
}

/**
 * SSH only from where netbench runs; tool ports and ICMP only from the run's
 * own hosts (same location by application security group, other locations by
 * their per-run VNet ranges, public addresses by /32); everything else from
 * the virtual network denied (an existing VNet may hold other machines).
 */
export function nsgBody(i: NsgInputs): NetworkSecurityGroup {
  const toRun = { destinationApplicationSecurityGroups: [{ id: i.asgId }], destinationAddressPrefix: undefined };
  const rules: SecurityRule[] = [
    rule('netbench-ssh', PRIORITY.ssh, { protocol: 'Tcp', destinationPortRange: '22', sourceAddressPrefixes: [...i.sshFrom], ...toRun }),
    rule('netbench-run-hosts', PRIORITY.sameLocation, { sourceApplicationSecurityGroups: [{ id: i.asgId }], ...toRun }),
    ...(i.otherPrefixes.length ? [rule('netbench-run-other-locations', PRIORITY.otherLocations, { sourceAddressPrefixes: [...i.otherPrefixes], ...toRun })] : []),
    ...(i.externalSources.length ? [rule('netbench-run-external', PRIORITY.external, { sourceAddressPrefixes: [...i.externalSources], ...toRun })] : []),
    rule('netbench-deny-vnet', PRIORITY.denyVnet, { access: 'Deny', sourceAddressPrefix: 'VirtualNetwork', destinationAddressPrefix: '*' }),
  ];
  return { location: i.location, tags: i.tags, securityRules: rules.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as SecurityRule) };
}

/**
 * The rule `admitPeers` adds: what `netbench-run-hosts` opens between the
 * run's own hosts (every protocol, ICMP included, every port) to the
 * location's application security group, from the peers' addresses. One
 * address family per rule: Azure refuses a rule mixing IPv4 and IPv6
 * (`ResourceCannotContainAddressPrefixesFromDifferentAddressFamilies`).
 */
export function peerRuleBody(i: { readonly asgId: string; readonly sources: readonly string[]; readonly priority: number; readonly description: string }): SecurityRule {
  return {
    description: i.description,
    protocol: '*',
    sourcePortRange: '*',
    destinationPortRange: '*',
    sourceAddressPrefixes: [...i.sources],
    destinationApplicationSecurityGroups: [{ id: i.asgId }],
    access: 'Allow',
    direction: 'Inbound',
    priority: i.priority,
  };
}
