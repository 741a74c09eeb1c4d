import { NETEM_FIELDS, type LinkConfig } from './host-schema.js';
import { defaultBurstBytes, linkQueueLabels, parseDuration, parsePercent, parseRate, rateQueueCommands } from '@netbench/plugin-api/cloud-kit';

/**
 * Bucket size in bytes when `burst` is unset. It must hold at least one whole (GSO) packet and
 * what the rate drains in a timer tick, or tbf falls short of the rate.
 */
export const tbfBurstBytes = defaultBurstBytes;

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
 * tc commands that shape `dev` inside `netns` on egress: netem at the root
 * (delay, jitter, loss, reorder, duplicate, corrupt) with the rate's qdisc (tbf, htb and its
 * child, or an AQM: cake, fq_codel, pie, fq) under it, or that alone.
 * Every value is re-formatted from parsed numbers, never passed through.
 */
export function shapingCommands(netns: string, link: LinkConfig | undefined, dev = 'eth0'): string[][] {
  if (!link) return [];
  const rate = link.rate !== undefined ? parseRate(link.rate) : undefined;
  const netem = NETEM_FIELDS.some((field) => link[field] !== undefined);
  const tc = ['tc', '-n', netns];
  const commands: string[][] = [];
  if (netem) {
    commands.push([...tc, 'qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', ...netemArgs(link)]);
    if (rate !== undefined) commands.push(...rateQueueCommands(tc, dev, rate, link, '1:1'));
  } else if (rate !== undefined) {
    commands.push(...rateQueueCommands(tc, dev, rate, link));
  }
  return commands;
}

/**
 * tc commands that shape what the bridge's port `veth` (the bridge's end of
 * the host's veth pair, in namespace `hub`) delivers to the host: the rate's
 * qdisc with the link's queue, where packets for the host wait as in a
 * router's buffer.
 */
export function ingressCommands(link: LinkConfig | undefined, veth: string, hub: string): string[][] {
  const rate = link?.ingressRate !== undefined ? parseRate(link.ingressRate) : undefined;
  return rate !== undefined && link ? rateQueueCommands(['tc', '-n', hub], veth, rate, link) : [];
}

/** Sample labels describing the shaping, since it changes every result. */
export function shapingLabels(link: LinkConfig | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (link?.rate !== undefined) labels.link_rate = link.rate;
  if (link?.ingressRate !== undefined) labels.link_ingress_rate = link.ingressRate;
  if (link?.delay !== undefined) labels.link_delay = link.delay;
  if (link?.jitter !== undefined) labels.link_jitter = link.jitter;
  if (link?.loss !== undefined) labels.link_loss = link.loss;
  if (link?.reorder !== undefined) labels.link_reorder = link.reorder;
  if (link?.duplicate !== undefined) labels.link_duplicate = link.duplicate;
  if (link?.corrupt !== undefined) labels.link_corrupt = link.corrupt;
  return { ...labels, ...linkQueueLabels(link ? { ...link, rate: link.rate ?? link.ingressRate } : undefined) };
}
