/**
 * The part of kube-scheduler's filtering the stand-in needs: required node
 * affinity (matchExpressions on node labels, matchFields on metadata.name)
 * and required pod (anti-)affinity by label selector and topology key, with
 * the documented exception that a pod may match its own affinity term when
 * no pod matches yet. Among the nodes left, the one with fewest pods.
 */
type Json = Record<string, any>;

export interface FakeNode {
  readonly name: string;
  readonly labels: Record<string, string>;
  /** InternalIP; hostNetwork pods get it as their pod IP. */
  readonly ip: string;
}

export interface ScheduledPod {
  readonly namespace: string;
  readonly labels: Record<string, string>;
  readonly nodeName?: string;
}

const matchesLabels = (selector: Json | undefined, labels: Record<string, string>) =>
  Object.entries((selector?.['matchLabels'] ?? {}) as Record<string, string>).every(([k, v]) => labels[k] === v);

function requirementHolds(req: Json, value: string | undefined): boolean {
  switch (req['operator']) {
    case 'In':
      return value !== undefined && (req['values'] as string[]).includes(value);
    case 'NotIn':
      return value === undefined || !(req['values'] as string[]).includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

function nodeFits(node: FakeNode, spec: Json): boolean {
  const terms = spec['affinity']?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as Json[] | undefined;
  if (!terms) return true;
  // Terms are ORed; requirements within a term are ANDed.
  return terms.some(
    (term) =>
      ((term['matchExpressions'] ?? []) as Json[]).every((req) => requirementHolds(req, node.labels[req['key']])) &&
      ((term['matchFields'] ?? []) as Json[]).every((req) => requirementHolds(req, req['key'] === 'metadata.name' ? node.name : undefined)),
  );
}

export function schedule(
  pod: { namespace: string; labels: Record<string, string>; spec: Json },
  nodes: readonly FakeNode[],
  others: readonly ScheduledPod[],
): { node?: FakeNode; reason: string } {
  const placed = others.filter((o) => o.nodeName !== undefined);
  const nodeOf = (name: string) => nodes.find((n) => n.name === name)!;
  const podAffinity = (pod.spec['affinity']?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Json[];
  const podAnti = (pod.spec['affinity']?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) as Json[];
  const matching = (term: Json) => placed.filter((o) => o.namespace === pod.namespace && matchesLabels(term['labelSelector'], o.labels));

  const fits = nodes.filter((node) => {
    if (!nodeFits(node, pod.spec)) return false;
    for (const term of podAffinity) {
      const key = term['topologyKey'] as string;
      const peers = matching(term);
      if (peers.length === 0 && matchesLabels(term['labelSelector'], pod.labels)) continue;
      if (!peers.some((p) => nodeOf(p.nodeName!).labels[key] === node.labels[key])) return false;
    }
    for (const term of podAnti) {
      const key = term['topologyKey'] as string;
      if (matching(term).some((p) => nodeOf(p.nodeName!).labels[key] === node.labels[key])) return false;
    }
    return true;
  });
  if (fits.length === 0)
    return { reason: `0/${nodes.length} nodes are available: ${nodes.length} node(s) didn't match the pod's node affinity/selector or pod (anti-)affinity rules.` };
  const load = (n: FakeNode) => placed.filter((p) => p.nodeName === n.name).length;
  const node = [...fits].sort((a, b) => load(a) - load(b))[0]!;
  return { node, reason: '' };
}
