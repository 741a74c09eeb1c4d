import { z } from '@netbench/plugin-api';
import { cpusSchema } from '@netbench/plugin-api/tool-kit';

const seconds = z.number().min(0.0001, 'interval: at least 0.0001 s (100 µs)').max(60, 'interval: at most 60 s');

/** The `tool: irtt` benchmark block. Times are seconds, as in the ping block. */
export const irttSchema = z.strictObject({
  interval: z
    .union([seconds, z.array(seconds).min(1)], { error: 'interval: seconds between packets (e.g. 0.01), or a list of them' })
    .default(0.2)
    .describe('Seconds between packets (`-i`), or a list: one trial each (an interval sweep).'),
  duration: z.number().min(0.1).max(86_400).default(10).describe('Seconds to send (`-d`).'),
  length: z
    .int()
    .min(0)
    .max(65_507)
    .optional()
    .describe('Packet length in bytes including irtt headers (`-l`); irtt raises it to its header size (about 60 bytes with timestamps).'),
  dscp: z.int().min(0).max(63).optional().describe('DSCP codepoint of the packets (`--dscp`), e.g. 46 (EF) or 8 (CS1).'),
  fill: z.enum(['none', 'rand']).default('none').describe('Payload fill (`--fill`): zeros, or random bytes.'),
  cpus: cpusSchema
    .optional()
    .describe(
      "Pin each end to a CPU: `{ client: 0, server: 1 }` (`taskset -c`). A pinned server is a server of the trial's own, not the run's shared one. Samples record the request (cpu_client, cpu_server) and where each end ran (cpu_client_affinity, cpu_server_affinity).",
    ),
  perPacket: z
    .boolean()
    .default(false)
    .describe('Also return every packet (RTT, send and receive delay) as a sample stamped with its send time. Flows always stream per-packet RTTs.'),
});

export type IrttParams = z.output<typeof irttSchema>;
