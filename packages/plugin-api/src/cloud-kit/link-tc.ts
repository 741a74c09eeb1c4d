/**
 * tc argv that applies a `link` (link-schema.ts) and the sample labels that
 * describe it. Every value is re-formatted from parsed numbers, never passed
 * through to tc.
 */
import { linkQueueLabels, rateQueueCommands } from './link-queue.js';
import { LINK_NETEM_FIELDS, type LinkConfig } from './link-schema.js';
import { parseDuration, parsePercent, parseRate } from './link-units.js';

function netemArgs(link: LinkConfig): string[] {
  const args = ['netem'];
  if (link.delay !== undefined) {
    args.push('delay', `${parseDuration(link.delay)}us`);
    if (link.jitter !== undefined) args.push(`${parseDuration(link.jitter)}us`);
  }
  if (link.loss !== undefined) args.push('loss', `${parsePercent(link.loss)}%`);
  if (link.reorder !== undefined) args.push('reorder', `${parsePercent(link.reorder)}%`);
  if (link.duplicate !== undefined) args.push('duplicate', `${parsePercent(link.duplicate)}%`);
  if (link.corrupt !== undefined) args.push('corrupt', `${parsePercent(link.corrupt)}%`);
  return args;
}

/**
 * tc commands that shape what `dev` sends: netem at the root (delay, jitter,
 * loss, reorder, duplicate, corrupt) with the rate's qdisc (tbf, htb and its
 * child, or an AQM) under it, or either alone. `tc` is the command up to the
 * object (`['tc']` inside the namespace, `['tc', '-n', NETNS]` from outside).
 */
export function linkEgressCommands(tc: readonly string[], dev: string, link: LinkConfig | undefined): string[][] {
  if (!link) return [];
  const rate = link.rate !== undefined ? parseRate(link.rate) : undefined;
  const commands: string[][] = [];
  if (LINK_NETEM_FIELDS.some((field) => link[field] !== undefined)) {
    commands.push([...tc, 'qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', ...netemArgs(link)]);
    if (rate !== undefined) commands.push(...rateQueueCommands(tc, dev, rate, link, '1:1'));
  } else if (rate !== undefined) {
    commands.push(...rateQueueCommands(tc, dev, rate, link));
  }
  return commands;
}

/**
 * tc commands that shape what the host receives: the rate's qdisc with the
 * link's queue on `dev`, the far end of the host's veth (a bridge port),
 * where packets for the host wait as in a router's buffer.
 */
export function linkIngressCommands(tc: readonly string[], dev: string, link: LinkConfig | undefined): string[][] {
  const rate = link?.ingressRate !== undefined ? parseRate(link.ingressRate) : undefined;
  return rate !== undefined && link ? rateQueueCommands(tc, dev, rate, link) : [];
}

/** Sample labels describing the shaping (`link_rate`, `link_delay`, …, the queue's), since it changes every result. */
export function linkLabels(link: LinkConfig | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (link?.rate !== undefined) labels.link_rate = link.rate;
  if (link?.ingressRate !== undefined) labels.link_ingress_rate = link.ingressRate;
  for (const field of LINK_NETEM_FIELDS) {
    const value = link?.[field];
    if (value !== undefined) labels[`link_${field}`] = value;
  }
  return { ...labels, ...linkQueueLabels(link ? { ...link, rate: link.rate ?? link.ingressRate } : undefined) };
}
