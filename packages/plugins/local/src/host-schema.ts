import { z } from 'zod';
import { checkLinkQueue, congestionControlSchema, linkQueueShape, parseDuration, parsePercent, rateProblem } from '@netbench/plugin-api/cloud-kit';
import { isPrivateSubnet, parseIpv4, parseSubnet } from './subnet.js';

export const DEFAULT_SUBNET = '10.213.0.0/24';

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
    /** Egress rate limit (tc tbf, or htb): what the host sends, queued in its own eth0. */
    rate: rate.optional(),
    /**
     * Rate limit of what the host receives, queued on the bridge's port toward it (the root side
     * of its veth), as a router's buffer in front of it: where a deep queue fills (bufferbloat).
     * TCP Small Queues keep a sender's own eth0 queue short whatever its depth.
     */
    ingressRate: rate.optional(),
    /** Added one-way delay on egress (netem). */
    delay: duration.optional(),
    /** Delay variation (netem); needs `delay`. */
    jitter: duration.optional(),
    /** Random packet loss (netem). */
    loss: percent.optional(),
    /** Share of packets sent at once instead of delayed, so they overtake others (netem reorder); needs `delay`. */
    reorder: percent.optional(),
    /** Share of packets sent twice (netem duplicate). */
    duplicate: percent.optional(),
    /** Share of packets with a flipped bit (netem corrupt): the receiver's checksum drops them. */
    corrupt: percent.optional(),
    /** The rate limit's queue: qdisc (tbf, htb), burst, limit or latency, htb child (cloud kit's link-queue). */
    ...linkQueueShape,
  })
  // The queue fields shape both rates (as Docker's link).
  .superRefine((link, ctx) => checkLinkQueue({ ...link, rate: link.rate ?? link.ingressRate }, ctx))
  .refine((link) => link.jitter === undefined || link.delay !== undefined, {
    message: 'jitter needs delay (netem varies the delay it adds)',
    path: ['jitter'],
  })
  .refine((link) => link.reorder === undefined || link.delay !== undefined, {
    message: 'reorder needs delay (netem reorders by sending some packets without the delay)',
    path: ['reorder'],
  });

export const hostSchema = z.strictObject({
  /** Private range the lab's addresses come from; every local host of a run must agree. */
  subnet: z
    .string()
    .refine((s) => parseSubnet(s) !== undefined, { message: 'expected an IPv4 subnet such as 10.213.0.0/24 (prefix 8..30, host bits zero)' })
    .refine((s) => { const subnet = parseSubnet(s); return subnet === undefined || isPrivateSubnet(subnet); }, {
      message: 'the lab subnet must be a private range (10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16)',
    })
    .optional(),
  /** Fixed address inside the subnet. */
  address: z.string().refine((s) => parseIpv4(s) !== undefined, { message: 'expected an IPv4 address such as 10.213.0.20' }).optional(),
  /** Shaping of what this host sends (rate, netem) and receives (ingressRate), and the queue of both. */
  link: linkSchema.optional(),
  /** TCP congestion control of the namespace (sysctl net.ipv4.tcp_congestion_control); the kernel must have it loaded. */
  congestionControl: congestionControlSchema.optional(),
  /** Run an sshd inside the namespace. */
  sshd: z.boolean().optional(),
  /** MTU of the host's eth0 (default the kernel's 1500): a lab path with a jumbo or a tunnel-sized MTU, or two ends that disagree. */
  mtu: z.int().min(576).max(65_535).optional(),
});

export type LinkConfig = z.infer<typeof linkSchema>;
export type LocalHostConfig = z.infer<typeof hostSchema>;

/** Fields of `link` that need netem. */
export const NETEM_FIELDS = ['delay', 'jitter', 'loss', 'reorder', 'duplicate', 'corrupt'] as const;

export function netemFields(link: LinkConfig | undefined): string[] {
  return link ? NETEM_FIELDS.filter((field) => link[field] !== undefined) : [];
}
