import type { LinkConfig } from './host-schema.js';
import { defaultBurstBytes, linkQueueLabels, parseDuration, parsePercent, parseRate, rateQueueCommands } from '@netbench/plugin-api/cloud-kit';

/**
 * Bucket size in bytes when `burst` is unset: at least one whole (GSO) packet and what the rate
 * drains in a timer tick, or tbf falls short of the rate (as the local lab).
 */
export const tbfBurstBytes = defaultBurstBytes;

function netemArgs(link: LinkConfig): string[] {
  const args = ['netem'];
  if (link.delay !== undefined) {
    args.push('delay', `${parseDuration(link.delay)}us`);
    if (link.jitter !== undefined) args.push(`${parseDuration(link.jitter)}us`);
  }
  if (link.loss !== undefined) args.push('loss', `${parsePercent(link.loss)}%`);
  return args;
}

/**
 * tc commands (run inside the container's network namespace) that shape what
 * the container sends on `eth0`: netem at the root with tbf as its child for
 * the rate, or tbf alone. Every value is re-formatted from parsed numbers.
 */
export function egressCommands(link: LinkConfig | undefined, dev = 'eth0'): string[][] {
  if (!link) return [];
  const rate = link.rate !== undefined ? parseRate(link.rate) : undefined;
  const netem = link.delay !== undefined || link.loss !== undefined;
  if (netem) {
    const commands = [['tc', 'qdisc', 'add', 'dev', dev, 'root', 'handle', '1:', ...netemArgs(link)]];
    if (rate !== undefined) commands.push(...rateQueueCommands(['tc'], dev, rate, link, '1:1'));
    return commands;
  }
  return rate !== undefined ? rateQueueCommands(['tc'], dev, rate, link) : [];
}

/** tc command (root namespace) that shapes what the host side of the container's veth delivers to it. */
export function ingressCommands(link: LinkConfig | undefined, hostVeth: string): string[][] {
  const rate = link?.ingressRate !== undefined ? parseRate(link.ingressRate) : undefined;
  return rate !== undefined && link ? rateQueueCommands(['tc'], hostVeth, rate, link) : [];
}

/** Sample labels describing the shaping, since it changes every result. */
export function shapingLabels(link: LinkConfig | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (link?.rate !== undefined) labels.link_rate = link.rate;
  if (link?.ingressRate !== undefined) labels.link_ingress_rate = link.ingressRate;
  if (link?.delay !== undefined) labels.link_delay = link.delay;
  if (link?.jitter !== undefined) labels.link_jitter = link.jitter;
  if (link?.loss !== undefined) labels.link_loss = link.loss;
  return { ...labels, ...linkQueueLabels(link ? { ...link, rate: link.rate ?? link.ingressRate } : undefined) };
}
