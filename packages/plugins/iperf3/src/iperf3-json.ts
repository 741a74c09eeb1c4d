import { z } from '@netbench/plugin-api';

// Only the fields netbench reads; iperf3 adds fields between versions, so objects stay loose.
const summary = z.looseObject({
  start: z.number(),
  end: z.number(),
  seconds: z.number(),
  bytes: z.number(),
  bits_per_second: z.number(),
  retransmits: z.number().optional(),
  jitter_ms: z.number().optional(),
  lost_packets: z.number().optional(),
  packets: z.number().optional(),
  lost_percent: z.number().optional(),
  omitted: z.boolean().optional(),
  sender: z.boolean().optional(),
});

const endStream = z.looseObject({
  udp: z.looseObject({ out_of_order: z.number().optional(), sender: z.boolean().optional() }).optional(),
});

export const iperf3JsonSchema = z.looseObject({
  start: z.looseObject({
    version: z.string().optional(),
    timestamp: z.looseObject({ timesecs: z.number() }).optional(),
    connecting_to: z.looseObject({ host: z.string(), port: z.number() }).optional(),
    accepted_connection: z.looseObject({ host: z.string() }).optional(),
    tcp_mss_default: z.number().optional(),
    test_start: z.looseObject({
      protocol: z.string(),
      num_streams: z.number(),
      blksize: z.number(),
      omit: z.number(),
      duration: z.number(),
      reverse: z.number(),
      target_bitrate: z.number().optional(),
    }),
  }),
  intervals: z.array(z.looseObject({ sum: summary, sum_bidir_reverse: summary.optional() })),
  end: z.looseObject({
    streams: z.array(endStream).default([]),
    sum_sent: summary,
    sum_received: summary,
    sum_sent_bidir_reverse: summary.optional(),
    sum_received_bidir_reverse: summary.optional(),
    cpu_utilization_percent: z
      .looseObject({
        host_total: z.number(),
        host_user: z.number(),
        host_system: z.number(),
        remote_total: z.number(),
        remote_user: z.number(),
        remote_system: z.number(),
      })
      .optional(),
    sender_tcp_congestion: z.string().optional(),
    receiver_tcp_congestion: z.string().optional(),
  }),
});

export type Iperf3Json = z.output<typeof iperf3JsonSchema>;
export type Iperf3Summary = z.output<typeof summary>;
