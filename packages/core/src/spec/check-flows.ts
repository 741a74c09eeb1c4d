import type { RawIssue } from '../issues/spec-error.js';
import { suggestion } from './did-you-mean.js';
import { flowPairs, flowsSchema } from './flows-schema.js';

/**
 * Host references of a benchmark's `flows` block: every host is a key of
 * `hosts`, no flow goes from a host to itself, labels are unique. The block's
 * shape is the skeleton's to report; this runs only on a well-formed one.
 */
export function checkFlowHosts(raw: unknown, base: readonly (string | number)[], hostNames: readonly string[], used: Set<string>): RawIssue[] {
  if (raw === undefined) return [];
  const parsed = flowsSchema.safeParse(raw);
  if (!parsed.success) return [];
  const issues: RawIssue[] = [];
  const reported = new Set<string>();
  const labels = new Set<string>();
  const check = (name: string, path: readonly (string | number)[]) => {
    if (hostNames.includes(name)) return used.add(name);
    if (reported.has(name)) return;
    reported.add(name);
    const list = hostNames.length > 0 ? `; hosts: ${hostNames.join(', ')}` : '';
    issues.push({ path: [...base, ...path], message: `unknown host '${name}'${suggestion(name, hostNames)}${list}` });
  };
  const flows = parsed.data;
  if (flows.topology === 'one-to-many') {
    check(flows.client, ['client']);
    flows.servers.forEach((name, i) => check(name, ['servers', i]));
  } else if (flows.topology === 'bidirectional') {
    check(flows.host, ['host']);
    flows.peers.forEach((name, i) => check(name, ['peers', i]));
  } else if (flows.topology === 'mesh') {
    flows.hosts.forEach((name, i) => check(name, ['hosts', i]));
  } else {
    flows.pairs.forEach((pair, i) => {
      check(pair.client, ['pairs', i, 'client']);
      check(pair.server, ['pairs', i, 'server']);
    });
  }
  for (const pair of flowPairs(flows)) {
    if (pair.client === pair.server) issues.push({ path: [...base, ...pair.path], message: `a flow needs two different hosts ('${pair.client}' would measure itself)` });
    else if (labels.has(pair.label)) issues.push({ path: [...base, ...pair.path], message: `flow label '${pair.label}' is used twice` });
    labels.add(pair.label);
  }
  return issues;
}
