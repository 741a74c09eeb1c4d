import { z } from '@netbench/plugin-api';
import { cpusSchema } from '@netbench/plugin-api/tool-kit';

/** The benchmark `tool` that names a latency-under-load test (docs/latency-under-load.md). */
export const LOAD_TOOL = 'load';

/** flent's test names this block runs, with what each holds. */
export const LOAD_TESTS = ['rrul', 'tcp_nup', 'tcp_ndown', 'tcp_bidirectional', 'ping'] as const;
export type LoadTest = (typeof LOAD_TESTS)[number];

/** Latency probes: ICMP echo (ping), UDP request/response (netperf UDP_RR), UDP with one-way delays (irtt). */
export const LOAD_PROBES = ['icmp', 'udp', 'irtt'] as const;
export type LoadProbe = (typeof LOAD_PROBES)[number];

/**
 * A `tool: load` benchmark block (besides `tool`, `name`, `client`,
 * `server`, `ip`): one of flent's tests, expanded into one synchronized
 * trial of bulk netperf flows and latency probes (ping, netperf UDP_RR, irtt).
 * Defaults are flent's: 60 s of load with 5 s idle before and after, 0.2 s
 * steps, 4 flows per direction.
 */
export const loadSchema = z
  .strictObject({
    test: z.enum(LOAD_TESTS, { error: `expected one of ${LOAD_TESTS.join(', ')}` }).describe('flent test name: rrul, tcp_nup, tcp_ndown, tcp_bidirectional or ping.'),
    duration: z.number().min(1).max(3600).default(60).describe('Seconds of load (flent `-l`); `ping` probes this long plus the idle phases.'),
    idle: z.number().min(0).max(600).default(5).describe('Seconds of idle link before and after the load; probes run the whole time (flent: 5).'),
    step: z.number().min(0.05).max(10).default(0.2).describe("Seconds between probes and between bulk flows' interval samples (flent `--step-size`, 0.2)."),
    streams: z.int().min(1).max(64).optional().describe("TCP flows per loaded direction: rrul 4, tcp_nup/tcp_ndown 4 (flent's tcp_4up), tcp_bidirectional 1."),
    probes: z
      .array(z.enum(LOAD_PROBES))
      .min(1)
      .optional()
      .describe('Latency probes: icmp (ping), udp (netperf UDP_RR), irtt (irtt: RTT and one-way delays). rrul: icmp and udp; the other tests: icmp.'),
    cpus: cpusSchema
      .optional()
      .describe(
        "Pin every flow's ends: `{ client: 0, server: 1 }`: each bulk flow (netperf -T), the UDP probe (netperf -T) and the irtt probe (taskset -c) on these CPUs of the client and server hosts; the ICMP probe's ping on the client CPU (the kernel answers echoes). Every flow's samples record where each end ran.",
      ),
    dscp: z.boolean().default(false).describe('rrul only: mark the flows BE, BK, CS5, EF as flent does (netperf -Y).'),
  })
  .refine((block) => !block.dscp || block.test === 'rrul', { message: 'dscp marks apply to rrul only', path: ['dscp'] });

export type LoadBlock = z.output<typeof loadSchema>;

/** The bulk flows and probes a test holds, from its block. */
export function loadShape(block: LoadBlock): { up: number; down: number; probes: readonly LoadProbe[] } {
  const streams = block.streams;
  const probes = block.probes ? [...new Set(block.probes)] : block.test === 'rrul' ? (['icmp', 'udp'] as const) : (['icmp'] as const);
  switch (block.test) {
    case 'rrul':
      return { up: streams ?? 4, down: streams ?? 4, probes };
    case 'tcp_nup':
      return { up: streams ?? 4, down: 0, probes };
    case 'tcp_ndown':
      return { up: 0, down: streams ?? 4, probes };
    case 'tcp_bidirectional':
      return { up: streams ?? 1, down: streams ?? 1, probes };
    case 'ping':
      return { up: 0, down: 0, probes };
  }
}
