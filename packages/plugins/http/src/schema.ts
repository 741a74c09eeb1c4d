import { z } from '@netbench/plugin-api';

// Object sizes: bytes, or a number with K or M (binary: 1K = 1024 bytes), e.g. 0, 1K, 100K, 1M.
const SIZE_RE = /^(\d+)([KkMm]?)$/;
const MAX_OBJECT_BYTES = 1024 ** 3;

export const GENERATORS = ['ab', 'wrk', 'oha'] as const;
export type Generator = (typeof GENERATORS)[number];

const generator = z.enum(GENERATORS, { error: 'generator: ab, wrk or oha' });
const scheme = z.enum(['http', 'https'], { error: 'scheme: http or https' });
const connections = z.int().min(1).max(20_000);
const rate = z.number().positive().max(10_000_000);
const size = z
  .union([z.int().min(0).max(MAX_OBJECT_BYTES), z.string().regex(SIZE_RE, 'size: bytes, or a number with K or M (1K = 1024 bytes), e.g. 0, 1K, 100K, 1M')])
  .transform((value) => objectBytes(value))
  .refine((bytes) => bytes <= MAX_OBJECT_BYTES, 'size: at most 1G');
const cpuList = z.string().regex(/^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$/, 'a CPU list as taskset takes it, e.g. 0 or 0,1 or 0-3');
const oneOrMany = <T extends z.ZodType>(schema: T, what: string) => z.union([schema, z.array(schema).min(1)], { error: `${what}: a value or a list of them` });

/** The `tool: http` benchmark block. Lists give one trial per combination. */
export const httpSchema = z
  .strictObject({
    generator: oneOrMany(generator, 'generator').default('wrk').describe('Load generator on the client host: ab, wrk or oha (constant rate), or a list.'),
    connections: oneOrMany(connections, 'connections').default(10).describe('Concurrent connections (ab -c, wrk -c, oha -c), or a list: the connections sweep.'),
    size: oneOrMany(size, 'size').default(1024).describe('Size of the static object the endpoint serves, bytes (or 1K, 100K, 1M), or a list.'),
    keepalive: oneOrMany(z.boolean(), 'keepalive').default(true).describe('HTTP keep-alive on (true) or a new connection per request (false), or [true, false].'),
    scheme: oneOrMany(scheme, 'scheme').default('http').describe('http or https (nginx with a self-signed certificate made for the run), or a list.'),
    rate: oneOrMany(rate, 'rate').optional().describe('oha only: offered requests/s (constant rate, latency from the intended send time), or a list: the latency-vs-load curve.'),
    duration: z.int().min(1).max(3_600).default(10).describe('Seconds of load (wrk -d, oha -z).'),
    requests: z.int().min(1).max(10_000_000).default(10_000).describe('ab only: requests in all (ab -n).'),
    threads: z.int().min(1).max(256).default(2).describe('wrk only: threads (wrk -t); never more than connections.'),
    timeout: z.int().min(1).max(600).default(10).describe('Whole seconds a request may take before the client counts a timeout (ab -s, wrk --timeout, oha -t).'),
    script: z
      .string()
      .min(1)
      .optional()
      .describe("wrk only: a Lua script under the spec file's folder (relative to it), yours and not writable by others, copied to the client host (wrk -s)."),
    path: z
      .string()
      .regex(/^\/[^\s]*$/, 'path: starts with / and has no spaces')
      .optional()
      .describe('Request path on the endpoint (default: the object of `size`).'),
    url: z
      .string()
      .refine(isHttpUrl, 'url: an http:// or https:// URL ({server} may stand for the host)')
      .optional()
      .describe('Load this URL instead of starting nginx; {server} in it is replaced by the server host address.'),
    workers: z.int().min(1).max(256).default(1).describe('nginx worker processes.'),
    clientCpus: cpuList.optional().describe('Pin the load generator to these CPUs (taskset -c).'),
    serverCpus: cpuList.optional().describe('Pin nginx to these CPUs (taskset -c).'),
  })
  .superRefine((block, ctx) => {
    const generators = new Set(Array.isArray(block.generator) ? block.generator : [block.generator]);
    const needs = (field: 'rate' | 'script', tool: Generator) => {
      if (block[field] !== undefined && !generators.has(tool)) ctx.addIssue({ code: 'custom', path: [field], message: `${field} is for ${tool}; add ${tool} to generator` });
    };
    needs('rate', 'oha');
    needs('script', 'wrk');
    if (block.url?.includes('{server}') && !/^https?:\/\/\{server\}(?::\d+)?(?:\/|$)/.test(block.url)) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'url: {server} may only stand for the host part, e.g. http://{server}:8080/' });
    }
  });

export type HttpParams = z.output<typeof httpSchema>;

/** `1K` → 1024, `1M` → 1048576, numbers as they are. */
export function objectBytes(value: number | string): number {
  if (typeof value === 'number') return value;
  const match = SIZE_RE.exec(value);
  if (!match) return Number.NaN;
  const unit = match[2]!.toLowerCase();
  return Number(match[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : 1);
}

/** An absolute http(s) URL; `{server}` counts as a host name. */
function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.replace('{server}', 'server'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
