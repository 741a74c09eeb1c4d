import type { Labels, TrialRecord } from '@netbench/plugin-api';

type Side = 'client' | 'server';

/** `100mbit tbf, 200ms queue`: one host's shaping from the engine's `host_<side>_link_*` labels; undefined when unshaped. */
function linkText(labels: Labels, side: Side): string | undefined {
  const get = (key: string) => {
    const value = labels[`host_${side}_link_${key}`];
    return value === undefined ? undefined : String(value);
  };
  const rate = get('ingress_rate') ?? get('rate');
  const qdisc = [get('qdisc'), get('child')].filter(Boolean).join('/');
  const latency = get('latency');
  const limit = get('limit');
  const queue = latency !== undefined ? `${latency} queue` : limit !== undefined ? `${limit}-packet queue` : undefined;
  const delay = get('delay');
  const loss = get('loss');
  const parts = [[rate, qdisc].filter(Boolean).join(' '), queue, delay !== undefined ? `+${delay} delay` : undefined, loss !== undefined ? `${loss} loss` : undefined].filter(
    (p): p is string => p !== undefined && p !== '',
  );
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** The same text for both ends once, else each end's with its side (`client cubic, server bbr`). */
function bothEnds(client: string | undefined, server: string | undefined): string | undefined {
  if (client === server) return client;
  return [client !== undefined ? `client ${client}` : undefined, server !== undefined ? `server ${server}` : undefined].filter(Boolean).join(', ') || undefined;
}

/**
 * What a trial ran through, for chart titles: the queue (rate, qdisc and
 * depth of the local lab's shaping) and the TCP congestion control, from the
 * labels every sample carries: `100mbit tbf, 200ms queue · cubic`. Empty when
 * the samples say neither (imported files, clouds without shaping).
 */
export function setupText(labels: Labels): string {
  const link = bothEnds(linkText(labels, 'client'), linkText(labels, 'server'));
  const cc = (side: Side) => {
    const value = labels[`host_${side}_tcp_congestion_control`];
    return value === undefined ? undefined : String(value);
  };
  return [link, bothEnds(cc('client'), cc('server'))].filter(Boolean).join(' · ');
}

/**
 * How charts name a trial: the spec's benchmark name (`rrul-deep`) with the
 * test when the name does not say it, else `t0001 rrul` when the benchmark
 * has no name of its own (its name is then the tool's).
 */
export function trialName(trialId: string, trial: Pick<TrialRecord, 'benchmarkName' | 'tool' | 'test'> | undefined, labels: Labels = {}): string {
  const benchmark = trial?.benchmarkName ?? (labels['benchmark'] === undefined ? undefined : String(labels['benchmark']));
  const tool = trial?.tool ?? labels['tool'];
  const test = String(labels['load_test'] ?? trial?.test ?? labels['test'] ?? '');
  if (benchmark === undefined || benchmark === '' || benchmark === tool) return [trialId, test].filter(Boolean).join(' ');
  return benchmark.includes(test) ? benchmark : `${benchmark} ${test}`;
}
