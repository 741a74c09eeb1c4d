import { z } from '@netbench/plugin-api';
import { clientCpuSchema } from '@netbench/plugin-api/tool-kit';

const interval = z.number().min(0.001).max(3600);

/** The `tool: ping` benchmark block. */
export const pingSchema = z.strictObject({
  count: z.int().min(1).max(10_000_000).default(100).describe('Echo requests per direction (`-c`).'),
  interval: z
    .union([interval, z.array(interval).min(1)], { error: 'interval: seconds between requests (0.001 to 3600), or a list of them' })
    .optional()
    .describe(
      "Seconds between requests (`-i`), or a list: one trial each (an interval sweep). Default 0.2; flood mode: as fast as replies come. Below ping's user minimum (0.2 s on old iputils, 2 ms on current) needs root.",
    ),
  flood: z.boolean().default(false).describe('Flood ping (`-f`): root only; prints no per-packet RTTs, so no percentiles.'),
  size: z.int().min(0).max(65_507).default(56).describe('ICMP payload bytes (`-s`). Below 16 ping cannot time replies.'),
  direction: z.enum(['forward', 'reverse', 'both']).default('both').describe('forward: client pings server; reverse: server pings client; both: one trial each.'),
  timeout: z.number().positive().max(3600).optional().describe('Seconds to wait for each reply (`-W`).'),
  cpus: clientCpuSchema('ping').optional().describe('Pin the pinging process to a CPU (`taskset -c`): `{ client: 0 }`. No `server`: the kernel answers echo requests.'),
});

export type PingParams = z.output<typeof pingSchema>;

/** Interval when the block gives none and flood is off: 5 requests/s keeps the default 100 requests to ~20 s. */
export const DEFAULT_INTERVAL = 0.2;
