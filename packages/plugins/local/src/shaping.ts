import type { LinkConfig } from './host-schema.js';
import { parseDuration, parsePercent, parseRate } from '@netbench/plugin-api/cloud-kit';

/** Queue a packet may wait in tbf before it is dropped; bounds the bufferbloat tbf itself adds. */
const TBF_LATENCY = '50ms';

/**
 * Bucket size in bytes. It must hold at least one whole (GSO) packet and
 * what the rate drains in a timer tick, or tbf falls short of the rate.
 */
export function tbfBurstBytes(bitsPerSecond: number): number {
  return Math.max(Math.ceil(bitsPerSecond / 8 / 250), 64 * 1024);
}

function tbfArgs(bitsPerSecond: number): string[] {
  return ['tbf', 'rate', `${bitsPerSecond}bit`, 'burst', String(tbfBurstBytes(bitsPerSecond)), 'latency', TBF_LATENCY];
}

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
 * tc commands that shape `dev` inside `netns` on egress: netem at the root
 * (delay, jitter, loss) with tbf as its child for the rate, or tbf alone.
 * Every value is re-formatted from parsed numbers, never passed through.
 */
export function shapingCommands(netns: string, link: LinkConfig | undefined, dev = 'eth0'): string[][] {
  if (!link) return [];
  const rate = link.rate !== undefined ? parseRate(link.rate) : undefined;
  const netem = link.delay !== undefined || link.loss !== undefined;
  const tc = ['tc', '-n', netns, 'qdisc', 'add', 'dev', dev];
  const commands: string[][] = [];
  if (netem) {
    commands.push([...tc, 'root', 'handle', '1:', ...netemArgs(link)]);
    if (rate !== undefined) commands.push([...tc, 'parent', '1:1', 'handle', '10:', ...tbfArgs(rate)]);
  } else if (rate !== undefined) {
    commands.push([...tc, 'root', 'handle', '1:', ...tbfArgs(rate)]);
  }
  return commands;
}

/** Sample labels describing the shaping, since it changes every result. */
export function shapingLabels(link: LinkConfig | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (link?.rate !== undefined) labels.link_rate = link.rate;
  if (link?.delay !== undefined) labels.link_delay = link.delay;
  if (link?.jitter !== undefined) labels.link_jitter = link.jitter;
  if (link?.loss !== undefined) labels.link_loss = link.loss;
  return labels;
}
