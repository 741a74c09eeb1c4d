import { z } from '@netbench/plugin-api';
import { clientCpuSchema } from '@netbench/plugin-api/tool-kit';

/** The `tool: hping3` benchmark block. */
export const hping3Schema = z.strictObject({
  mode: z
    .enum(['syn', 'flood'])
    .default('syn')
    .describe(
      'syn: TCP SYN probes, one RTT each (SYN-ACK from a listening port, RST from a closed one); flood: SYNs as fast as hping3 sends them (`--flood`), packets per second.',
    ),
  port: z.int().min(1).max(65_535).default(80).describe('TCP destination port (`-p`).'),
  count: z.int().min(1).max(1_000_000).default(100).describe('syn: probes to send (`-c`).'),
  interval: z.int().min(1).max(60_000_000).default(10_000).describe('syn: microseconds between probes (`-i uN`).'),
  duration: z.int().min(1).max(3600).default(5).describe('flood: seconds to send for (hping3 is stopped with SIGINT, which makes it print its statistics).'),
  cpus: clientCpuSchema('hping3').optional().describe('Pin hping3 to a CPU (`taskset -c`): `{ client: 0 }`. No `server`: the kernel answers SYNs.'),
});

export type Hping3Params = z.output<typeof hping3Schema>;
