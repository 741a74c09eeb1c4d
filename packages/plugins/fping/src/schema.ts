import { z } from '@netbench/plugin-api';
import { clientCpuSchema } from '@netbench/plugin-api/tool-kit';

/** The `tool: fping` benchmark block. */
export const fpingSchema = z.strictObject({
  count: z.int().min(1).max(1_000_000).default(100).describe('Requests per direction (`-C`): every reply is kept, so percentiles are exact.'),
  period: z.int().min(1).max(3_600_000).default(20).describe('Milliseconds between requests to the target (`-p`). fping refuses below 10 for a normal user.'),
  size: z.int().min(0).max(65_507).default(56).describe('ICMP payload bytes (`-b`).'),
  timeout: z.int().min(1).max(600_000).optional().describe("Milliseconds to wait for a reply (`-t`); fping's default is 500."),
  cpus: clientCpuSchema('fping').optional().describe('Pin the pinging process to a CPU (`taskset -c`): `{ client: 0 }`. No `server`: the kernel answers echo requests.'),
  direction: z.enum(['forward', 'reverse', 'both']).default('forward').describe('forward: client pings server; reverse: server pings client; both: one trial each.'),
});

export type FpingParams = z.output<typeof fpingSchema>;
