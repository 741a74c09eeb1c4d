// Small real plugins (made with definePlugin) and a resolver over them, for the
// spec loader and planner tests. Their schemas follow the fields the built-in
// plugins accept; their `run` does not measure (planning never calls it).
import { z } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import type { AnyPlugin } from '@netbench/plugin-api';
import type { PluginKind } from '@netbench/plugin-api';
import type { Host } from '@netbench/plugin-api';
import type { PluginDescriptor, PluginResolver } from '../../registry/types.js';
import { processHost } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import type { TrialSpec } from '@netbench/plugin-api';

const notMeasured = (): never => {
  throw new UnsupportedError('test plugin: plans only, does not measure');
};

async function versionOf(host: Host, argv: string[], tool: string) {
  const result = await host.exec(argv).catch(() => undefined);
  if (!result || result.code !== 0) throw new ToolMissingError(tool, host.name);
  return { version: (result.stdout + result.stderr).trim().split('\n')[0] ?? '', features: {} };
}

/** A cloud whose hosts are this machine; `zone` is a free label, `link` a shaping request. */
export const labCloud = definePlugin({
  kind: 'cloud',
  name: 'local',
  hostSchema: z.strictObject({
    zone: z.string().default('lab-a'),
    link: z.strictObject({ rate: z.string().regex(/^\d+(k|m|g)?bit$/, 'a rate like 100mbit'), delay: z.string().optional() }).optional(),
  }),
  async provision(requests) {
    return requests.map((r) => processHost({ id: r.id, name: r.name, cloud: 'local', internalIp: '127.0.0.1', zone: String(r.config.zone) }));
  },
  async teardown() {},
});

const netperfTest = z.enum(['TCP_RR', 'TCP_CRR', 'TCP_STREAM', 'TCP_MAERTS', 'UDP_RR', 'UDP_STREAM']);

const netperfSchema = z.strictObject({
  tests: z.array(netperfTest).min(1).default(['TCP_RR']),
  streams: z.array(z.int().min(1)).min(1).default([1]),
  duration: z.number().positive().default(10),
});

/** netperf: `tests` × `streams` trials. */
export const netperfTool = definePlugin({
  kind: 'tool',
  name: 'netperf',
  schema: netperfSchema,
  trials(p: z.output<typeof netperfSchema>): TrialSpec[] {
    return p.tests.flatMap((test) => p.streams.map((streams) => ({ test, params: { streams, duration: p.duration }, estimatedSeconds: p.duration })));
  },
  check: (host) => versionOf(host, ['netperf', '-V'], 'netperf'),
  run: notMeasured,
  parse: () => [],
});

const protocol = z.enum(['tcp', 'udp']);
const streamCount = z.int().min(1).max(128);
const iperf3Schema = z.strictObject({
  protocol: z.union([protocol, z.array(protocol).min(1)]).default('tcp'),
  streams: z.union([streamCount, z.array(streamCount).min(1)]).default(1),
  duration: z.int().min(1).default(10),
});
const list = <T>(value: T | readonly T[]): readonly T[] => (Array.isArray(value) ? value : [value as T]);

/** iperf3: one trial per protocol × stream count. */
export const iperf3Tool = definePlugin({
  kind: 'tool',
  name: 'iperf3',
  schema: iperf3Schema,
  trials: (p: z.output<typeof iperf3Schema>) =>
    list(p.protocol).flatMap((test) => list(p.streams).map((streams) => ({ test, params: { streams, duration: p.duration }, estimatedSeconds: p.duration }))),
  check: (host) => versionOf(host, ['iperf3', '--version'], 'iperf3'),
  run: notMeasured,
  parse: () => [],
});

const pingSchema = z.strictObject({
  count: z.int().min(1).default(100),
  interval: z.number().min(0.001).optional(),
  direction: z.enum(['forward', 'reverse', 'both']).default('both'),
});

/** ping: one trial per direction (`both` pings each way, as PKB does). */
export const pingTool = definePlugin({
  kind: 'tool',
  name: 'ping',
  schema: pingSchema,
  trials: (p: z.output<typeof pingSchema>) => {
    const interval = p.interval ?? 0.2;
    const directions = p.direction === 'both' ? ['forward', 'reverse'] : [p.direction];
    return directions.map((direction) => ({ test: 'icmp', params: { count: p.count, interval, direction }, estimatedSeconds: p.count * interval }));
  },
  check: (host) => versionOf(host, ['ping', '-V'], 'ping'),
  run: notMeasured,
  parse: () => [],
});

export const jsonPublisher = definePlugin({
  kind: 'publisher',
  name: 'json',
  schema: z.strictObject({ file: z.string().default('results.json'), pretty: z.boolean().default(false) }),
  publish: async (_run, samples) => ({ count: samples.length }),
});

export const ALL_TEST_PLUGINS: readonly AnyPlugin[] = [labCloud, netperfTool, iperf3Tool, pingTool, jsonPublisher];

/** A resolver over plugin objects, recording which ones were imported (`get`). */
export class TestResolver implements PluginResolver {
  readonly imported: string[] = [];

  constructor(private readonly plugins: readonly AnyPlugin[] = ALL_TEST_PLUGINS) {}

  list(kind?: PluginKind): readonly PluginDescriptor[] {
    return this.plugins
      .filter((p) => kind === undefined || p.kind === kind)
      .map((p) => ({ kind: p.kind, name: p.name, packageName: `@netbench/plugin-${p.name}`, version: '0.0.0', dir: '/nonexistent', builtin: true }));
  }

  async get<K extends PluginKind>(kind: K, name: string): Promise<Extract<AnyPlugin, { kind: K }> | undefined> {
    const plugin = this.plugins.find((p) => p.kind === kind && p.name === name);
    if (plugin) this.imported.push(`${kind}:${name}`);
    return plugin as Extract<AnyPlugin, { kind: K }> | undefined;
  }
}
