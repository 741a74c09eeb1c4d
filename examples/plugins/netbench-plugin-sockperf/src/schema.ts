import { z } from '@netbench/plugin-api';

const mode = z.enum(['ping-pong', 'under-load']);
const protocol = z.enum(['udp', 'tcp']);
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);

/** The `tool: sockperf` benchmark block (besides tool, name, client, server, ip). */
export const sockperfSchema = z.strictObject({
  mode: oneOrMany(mode)
    .default('ping-pong')
    .describe('ping-pong: one message in flight, latency of each; under-load: a steady message rate (mps) with every Nth reply timed. A list gives one trial each.'),
  protocol: oneOrMany(protocol).default('udp').describe('udp or tcp (sockperf --tcp), or a list: one trial each.'),
  duration: z.int().min(1).max(86_400).default(5).describe('Seconds to measure (-t); sockperf adds a 0.4 s warm-up.'),
  messageSize: z.int().min(14).max(65_000).default(64).describe('Message size in bytes (-m); sockperf needs at least 14.'),
  mps: oneOrMany(z.int().min(1).max(10_000_000))
    .optional()
    .describe(
      'Messages per second (--mps), or a list: one trial each (netbench charts latency by probe interval, 1 / mps). Default: as fast as possible for ping-pong, 10000 for under-load.',
    ),
  replyEvery: z.int().min(1).max(1_000_000).default(100).describe('under-load: the server replies to every Nth message (--reply-every); those are the timed ones.'),
  fullRtt: z.boolean().default(false).describe("Report round-trip times (--full-rtt) instead of sockperf's one-way estimate (RTT/2)."),
  histogram: z.boolean().default(true).describe('Record every observation (--full-log) into a latency histogram on the samples.'),
});

export type SockperfParams = z.output<typeof sockperfSchema>;
export type SockperfMode = z.output<typeof mode>;
export type SockperfProtocol = z.output<typeof protocol>;
