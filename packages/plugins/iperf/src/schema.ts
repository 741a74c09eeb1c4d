import { z } from '@netbench/plugin-api';
import { cpusSchema } from '@netbench/plugin-api/tool-kit';

// iperf's size/rate syntax: a number with an optional k/m/g (decimal) or K/M/G (binary) suffix.
const SIZE_RE = /^\d+(?:\.\d+)?[KMGkmg]?$/;
const size = (what: string) => z.union([z.int().positive(), z.string().regex(SIZE_RE, `${what}: a number with an optional K, M or G suffix, e.g. 128K`)]);
const protocol = z.enum(['tcp', 'udp']);
const streamCount = z.int().min(1).max(128);

/** The `tool: iperf` (iperf 2) benchmark block. */
export const iperfSchema = z.strictObject({
  protocol: z
    .union([protocol, z.array(protocol).min(1)], { error: 'protocol: tcp, udp, or a list of them' })
    .default('tcp')
    .describe('tcp, udp, or a list: one trial each.'),
  streams: z
    .union([streamCount, z.array(streamCount).min(1)])
    .default(1)
    .describe('Parallel client threads (`-P`), or a list: one trial each. PKB: iperf_sending_thread_count.'),
  duration: z.int().min(1).max(86_400).default(10).describe('Seconds to send (`-t`). PKB: iperf_runtime_in_seconds.'),
  interval: z.number().min(0.5).max(60).optional().describe('Seconds between interval reports (`-i`): the `Interval Throughput` time series.'),
  bitrate: size('bitrate').optional().describe("Target rate per stream (`-b`), bits/s (`100M`). Default: 1G for UDP (iperf's own default is 1 Mbit/s), unlimited for TCP."),
  reverse: z.boolean().default(false).describe('The server sends, the client receives (`-R`, iperf 2.1+).'),
  length: size('length').optional().describe('Buffer length to read or write (`-l`); for UDP the datagram size.'),
  window: size('window').optional().describe('Socket buffer size (`-w`).'),
  mss: z.int().min(88).max(65_535).optional().describe('TCP maximum segment size (`-M`).'),
  nodelay: z.boolean().default(false).describe('TCP_NODELAY (`-N`).'),
  cpus: cpusSchema.optional().describe('Pin the client and the server process to CPUs (`taskset -c`): `{ client: 0, server: 1 }`.'),
});

export type IperfParams = z.output<typeof iperfSchema>;
export type IperfProtocol = z.output<typeof protocol>;

/** UDP has no congestion control: iperf's default 1 Mbit/s measures nothing. Same default as the iperf3 plugin. */
export const DEFAULT_UDP_BITRATE = '1G';
