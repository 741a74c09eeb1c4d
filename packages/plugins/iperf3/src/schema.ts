import { z } from '@netbench/plugin-api';
import { cpusSchema } from '@netbench/plugin-api/tool-kit';

// iperf3's own size/rate syntax: a number with an optional K/M/G/T suffix (`100M`, `1.5G`, `128K`).
const SIZE_RE = /^\d+(?:\.\d+)?[KMGTkmgt]?$/;
// `-b` also takes `rate/burst` (`100M/10`).
const BITRATE_RE = /^\d+(?:\.\d+)?[KMGTkmgt]?(?:\/\d+)?$/;

const size = (what: string) => z.union([z.int().positive(), z.string().regex(SIZE_RE, `${what}: a number with an optional K, M, G or T suffix, e.g. 128K`)]);

const protocol = z.enum(['tcp', 'udp']);
const streamCount = z.int().min(1).max(128);

/** The `tool: iperf3` benchmark block. */
export const iperf3Schema = z
  .strictObject({
    protocol: z
      .union([protocol, z.array(protocol).min(1)], { error: 'protocol: tcp, udp, or a list of them' })
      .default('tcp')
      .describe('tcp, udp, or a list: one trial each.'),
    streams: z
      .union([streamCount, z.array(streamCount).min(1)])
      .default(1)
      .describe('Parallel streams (`-P`), or a list: one trial each.'),
    duration: z.int().min(1).max(86_400).default(10).describe('Seconds to measure (`-t`).'),
    omit: z.int().min(0).max(3_600).default(0).describe('Seconds of warm-up left out of the results (`-O`), e.g. TCP slow start.'),
    bitrate: z
      .union([z.int().positive(), z.string().regex(BITRATE_RE, 'bitrate: e.g. 100M, 1G, 1.5G or 100M/10 (rate/burst)')])
      .optional()
      .describe('Target rate per stream (`-b`), bits/s. Default: 1G for UDP, unlimited for TCP.'),
    reverse: z.boolean().default(false).describe('The server sends, the client receives (`-R`).'),
    bidir: z.boolean().default(false).describe('Both directions at once (`--bidir`, iperf3 3.7+).'),
    mss: z.int().min(88).max(65_535).optional().describe('TCP maximum segment size (`-M`).'),
    length: size('length').optional().describe('Buffer length to read or write (`-l`); for UDP the datagram size.'),
    window: size('window').optional().describe('Socket buffer size (`-w`).'),
    zerocopy: z.boolean().default(false).describe('Send with sendfile(2) (`-Z`).'),
    cpus: cpusSchema.optional().describe('Pin the client and the server process to CPUs (`taskset -c`): `{ client: 0, server: 1 }`.'),
    interval: z.number().min(0.1).max(60).default(1).describe('Seconds between interval reports (`-i`): the time series.'),
    congestion: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,15}$/, 'congestion: a TCP congestion control algorithm such as cubic, bbr or reno')
      .optional()
      .describe("TCP congestion control of the test's connections on both ends (`-C`), e.g. cubic or bbr; the samples say what each end used."),
  })
  .superRefine((block, ctx) => {
    if (block.congestion !== undefined && block.protocol === 'udp') {
      ctx.addIssue({ code: 'custom', path: ['congestion'], message: "congestion control is TCP's; UDP has none" });
    }
    if (block.reverse && block.bidir) {
      ctx.addIssue({ code: 'custom', path: ['bidir'], message: 'bidir already measures both directions; drop reverse' });
    }
  });

export type Iperf3Params = z.output<typeof iperf3Schema>;
export type Iperf3Protocol = z.output<typeof protocol>;

/** UDP has no congestion control: without a target rate iperf3 sends 1 Mbit/s, which measures nothing. */
export const DEFAULT_UDP_BITRATE = '1G';
