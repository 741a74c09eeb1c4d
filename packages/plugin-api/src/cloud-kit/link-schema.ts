/**
 * The `link` host field of clouds that shape a link with tc on this machine
 * (the local lab, Docker): a rate for each direction, netem impairments on
 * egress, and the rate's queue (`link-queue.ts`). One schema, so the same
 * spec shapes a namespace and a container alike.
 */

import type { LinkShaping } from '../plugin/cloud.js';
import { z } from '../plugin/zod.js';
import { checkLinkQueue, linkQueueShape } from './link-queue.js';
import { parseDuration, parsePercent, parseRate, rateProblem } from './link-units.js';

// Ambiguous units (`100Mbps`: tc's bytes, or bits?) are refused with what to write instead.
const rate = z.string().superRefine((s, ctx) => {
  const problem = rateProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const duration = z.string().refine((s) => parseDuration(s) !== undefined, {
  message: 'expected a duration such as 10ms, 250us or 0.5s',
});
const percent = z.string().refine((s) => parsePercent(s) !== undefined, {
  message: 'expected a percentage between 0% and 100%, such as 0.1%',
});

export const linkSchema = z
  .strictObject({
    /** Egress rate limit (tc tbf, or htb): what the host sends, queued on its own eth0. */
    rate: rate.optional(),
    /**
     * Rate limit of what the host receives, queued on the bridge's side of its veth, as a router's
     * buffer in front of it: where a deep queue fills (bufferbloat). TCP Small Queues keep a
     * sender's own eth0 queue short whatever its depth.
     */
    ingressRate: rate.optional(),
    /** Added one-way delay on egress (netem). */
    delay: duration.optional(),
    /** Delay variation (netem); needs `delay`. */
    jitter: duration.optional(),
    /** Random packet loss on egress (netem). */
    loss: percent.optional(),
    /** Share of packets sent at once instead of delayed, so they overtake others (netem reorder); needs `delay`. */
    reorder: percent.optional(),
    /** Share of packets sent twice (netem duplicate). */
    duplicate: percent.optional(),
    /** Share of packets with a flipped bit (netem corrupt): the receiver's checksum drops them. */
    corrupt: percent.optional(),
    /** The rate limit's queue: qdisc (tbf, htb, an AQM), burst, limit or latency, htb child. */
    ...linkQueueShape,
  })
  // The queue fields shape both rates.
  .superRefine((link, ctx) => checkLinkQueue({ ...link, rate: link.rate ?? link.ingressRate }, ctx))
  .refine((link) => link.jitter === undefined || link.delay !== undefined, {
    message: 'jitter needs delay (netem varies the delay it adds)',
    path: ['jitter'],
  })
  .refine((link) => link.reorder === undefined || link.delay !== undefined, {
    message: 'reorder needs delay (netem reorders by sending some packets without the delay)',
    path: ['reorder'],
  });

export type LinkConfig = z.infer<typeof linkSchema>;

/** Fields of `link` that need netem. */
export const LINK_NETEM_FIELDS = ['delay', 'jitter', 'loss', 'reorder', 'duplicate', 'corrupt'] as const;

/** The netem fields a link sets (for a preflight that checks the kernel has netem). */
export function linkNetemFields(link: LinkConfig | undefined): string[] {
  return link ? LINK_NETEM_FIELDS.filter((field) => link[field] !== undefined) : [];
}

/**
 * A cloud's `linkShaping` declaration for a `link` field of this shape: its
 * rates in bits per second, named `<field>.rate` and `<field>.ingressRate`.
 * Undefined when neither rate is set (netem alone limits no rate).
 */
export function linkRateShaping(link: Pick<LinkConfig, 'rate' | 'ingressRate'> | undefined, field = 'link'): LinkShaping | undefined {
  const egress = link?.rate !== undefined ? parseRate(link.rate) : undefined;
  const ingress = link?.ingressRate !== undefined ? parseRate(link.ingressRate) : undefined;
  if (egress === undefined && ingress === undefined) return undefined;
  return {
    ...(egress !== undefined ? { egress: { bitsPerSecond: egress, field: `${field}.rate`, written: link!.rate! } } : {}),
    ...(ingress !== undefined ? { ingress: { bitsPerSecond: ingress, field: `${field}.ingressRate`, written: link!.ingressRate! } } : {}),
  };
}
