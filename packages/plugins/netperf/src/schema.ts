import { z } from '@netbench/plugin-api';
import { cpusSchema } from '@netbench/plugin-api/tool-kit';
import { DEFAULT_TESTS, NETPERF_TESTS } from './tests.js';

const positiveInt = z.number().int().positive();

/** `-I level,width -i max,min`: repeat each run until the result is known to ±width/2 %. */
export const confidenceSchema = z
  .strictObject({
    /** Confidence level in percent. */
    level: z.union([z.literal(95), z.literal(99)]).default(99),
    /** Full width of the interval, in percent of the result (netperf's default 10; PKB uses 5). */
    width: z.number().positive().max(100).default(5),
    /** Fewest iterations (netperf needs at least 3 to estimate an interval). */
    min: z.number().int().min(3).max(30).default(3),
    /** Most iterations (netperf allows 30). */
    max: z.number().int().min(3).max(30).default(10),
  })
  .refine((value) => value.min <= value.max, { message: 'confidence.min must not exceed confidence.max', path: ['min'] });

/** `-b burst -w wait`: send `burst` transactions every `waitMs` instead of back to back. */
export const intervalSchema = z.strictObject({
  burst: positiveInt.default(1),
  /** Milliseconds between bursts; fractions allowed (netperf gets microseconds). */
  waitMs: z.number().positive(),
});

/** The `netperf` benchmark block (besides `tool`, `name`, `client`, `server`, `ip`). */
export const netperfBlockSchema = z
  .strictObject({
    /** netperf tests to run (PKB's `netperf_benchmarks`). */
    tests: z
      .array(z.enum(NETPERF_TESTS))
      .min(1)
      .default([...DEFAULT_TESTS]),
    /** Seconds per run (`-l`; PKB's `netperf_test_length`). */
    duration: positiveInt.default(60),
    /** Concurrent netperf processes (PKB's `netperf_num_streams`); a list makes one trial per value. */
    streams: z.union([positiveInt, z.array(positiveInt).min(1)]).default(1),
    /** Request and response sizes in bytes for *_RR tests (`-r req,resp`). */
    requestSize: positiveInt.default(1),
    responseSize: positiveInt.default(1),
    /** Bytes per send call for *_STREAM / TCP_MAERTS tests (`-m`); netperf's default is the socket buffer size. */
    sendSize: positiveInt.optional(),
    /** Socket buffer size in bytes, both ends (`-s` / `-S`). */
    socketBuffer: positiveInt.optional(),
    /** Disable Nagle's algorithm on TCP tests (`-D`). */
    nodelay: z.boolean().default(false),
    /**
     * *_RR tests: transactions kept in flight at once (netperf's test-specific
     * `-b`, its "first burst"; Debian's netperf is built with it). More in
     * flight, more packets per second, up to what the hosts can do. A list
     * makes one trial per value (PKB's burst-size sweep).
     */
    burst: z.union([z.number().int().min(0).max(4096), z.array(z.number().int().min(0).max(4096)).min(1)]).optional(),
    /**
     * *_RR tests: PKB's burst-size search (netperf's find_max_burst.sh): one
     * trial per burst 0, 1, 2, 4, ... up to `max`, run in that order, stopping
     * at the first whose transaction rate (the flows' aggregate in a flows
     * trial) rises less than `minGainPercent` over the best so far.
     */
    burstSearch: z
      .strictObject({
        max: z.number().int().min(1).max(4096).default(256),
        minGainPercent: z.number().min(0).max(100).default(5),
      })
      .optional(),
    /**
     * Seconds between interim results (netperf demo mode, `-D`), reported as
     * interval samples in a flows trial. Flows trials default to 1 s. A
     * negative value (flent's `-D -0.2`) makes netperf read the clock on every
     * send, so intervals stay on time when the rate collapses under load
     * (a positive one counts sends, guessed from the rate so far).
     */
    demo: z
      .number()
      .refine((v) => Math.abs(v) >= 0.1 && Math.abs(v) <= 60, 'seconds between 0.1 and 60 (negative: checked on every send)')
      .optional(),
    /** IP TOS byte of both ends' data connection, hexadecimal (`-Y tos,tos`; DSCP EF is `0xb8`), as flent's rrul marks its flows. */
    tos: z
      .string()
      .regex(/^0x[0-9a-fA-F]{1,2}$/, 'a hexadecimal TOS byte such as 0xb8')
      .optional(),
    confidence: confidenceSchema.optional(),
    interval: intervalSchema.optional(),
    /** Ask for netperf's printed latency histogram (`-v 2`); needs a build with `--enable-histogram`. */
    histogram: z.boolean().default(false),
    /** TCP tests: congestion control of both ends' sockets (test-specific `-K algo,algo`), e.g. cubic or bbr; samples say what each end used. */
    congestion: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,15}$/, 'congestion: a TCP congestion control algorithm such as cubic, bbr or reno')
      .optional(),
    /** Measure local and remote CPU utilisation (`-c -C`). */
    cpuUtil: z.boolean().default(false),
    /** Pin netperf (client) and netserver's test process (server) to CPUs (`-T client,server`). */
    cpus: cpusSchema.optional(),
  })
  .refine((block) => block.burst === undefined || block.burstSearch === undefined, { message: 'give burst or burstSearch, not both', path: ['burstSearch'] });

export type NetperfBlock = z.output<typeof netperfBlockSchema>;
