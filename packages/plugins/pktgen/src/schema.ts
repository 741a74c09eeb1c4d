import { z } from '@netbench/plugin-api';

/** The `tool: pktgen` benchmark block. */
export const pktgenSchema = z.strictObject({
  count: z.int().min(1).max(1_000_000_000).default(1_000_000).describe('Packets to send (pktgen `count`; 0, "forever", is not offered: a trial ends).'),
  size: z.int().min(42).max(9_000).default(60).describe('Frame bytes without the 4-byte FCS (pktgen `pkt_size`): 60 is the minimal 64-byte Ethernet frame.'),
  rate: z.int().min(1).max(100_000_000).optional().describe('Packets per second to pace at (pktgen `ratep`); unset: as fast as the sending CPU goes.'),
  cpu: z.int().min(0).max(4095).default(0).describe('CPU whose pktgen kernel thread (`kpktgend_<cpu>`) sends.'),
  port: z
    .int()
    .min(1)
    .max(65_535)
    .default(9)
    .describe('UDP destination port (`udp_dst_min`/`udp_dst_max`); 9, discard, has no listener, so the receiver drops the packets after counting them.'),
});

export type PktgenParams = z.output<typeof pktgenSchema>;
