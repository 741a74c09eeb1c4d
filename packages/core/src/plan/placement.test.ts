import type { ToolPlacement } from '@netbench/plugin-api';
import { clientOnlyPlacement } from '@netbench/plugin-api/tool-kit';
import { expect, it } from 'vitest';
import { type PlacementFacts, placementWarnings } from './placement.js';
import type { FleetHost, PlannedTrial } from './types.js';

const host = (id: string, cloud = 'local'): FleetHost => ({ id, name: id, cloud, config: {} });
const trial = (params: Record<string, number>, client = 'c', server = 's'): PlannedTrial => ({ id: 't', tool: 'netperf', client, server, params }) as unknown as PlannedTrial;
// What the built-in plugins declare (ping/fping/http plugin.ts, local-plugin.ts).
const builtIns = new Map<string, ToolPlacement>([
  ['ping', clientOnlyPlacement],
  ['fping', clientOnlyPlacement],
  ['http', { howToPin: "`clientCpus: '0'`, `serverCpus: '1'`" }],
]);
const facts = (tools: ReadonlyMap<string, ToolPlacement> = builtIns, sharedClouds = ['local']): PlacementFacts => ({ tools, sharedClouds: new Set(sharedClouds) });

it('warns once on a small machine when local-lab trials run unpinned', () => {
  const fleet = [host('c'), host('s')];
  const [warning, ...rest] = placementWarnings({ fleet, trials: [trial({}), trial({ cpu_client: 0 })] }, 2, facts());
  expect(rest).toEqual([]);
  expect(warning).toMatch(/^2 netperf trials run both ends on this machine's 2 CPUs without pinning: .*\(netperf: `cpus: \{ client: 0, server: 1 \}`\)/);
});

it('is quiet when pinned, on a larger machine, or off a cloud whose hosts share this machine', () => {
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [trial({ cpu_client: 0, cpu_server: 1 })] }, 2, facts())).toEqual([]);
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [trial({})] }, 16, facts())).toEqual([]);
  expect(placementWarnings({ fleet: [host('c', 'aws'), host('s', 'aws')], trials: [trial({})] }, 2, facts())).toEqual([]);
  // Nothing declared: no cloud is known to share this machine.
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [trial({})] }, 2)).toEqual([]);
});

it("counts http trials pinned by their CPU lists and quotes http's own pinning syntax", () => {
  const http = (params: Record<string, string>) => ({ ...trial({}), tool: 'http', params }) as unknown as PlannedTrial;
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [http({ cpu_client: '1', cpu_server: '0' })] }, 2, facts())).toEqual([]);
  const [warning] = placementWarnings({ fleet: [host('c'), host('s')], trials: [http({ cpu_client: '1' })] }, 2, facts());
  expect(warning).toMatch(/^1 http trial runs both ends/);
  expect(warning).toContain("(http: `clientCpus: '0'`, `serverCpus: '1'`)");
});

it('counts ping and fping as pinned with their client alone (their declared clientOnlyPlacement)', () => {
  const fleet = [host('c'), host('s')];
  const ping = (params: Record<string, number>, tool: string) => ({ ...trial(params), tool }) as PlannedTrial;
  expect(placementWarnings({ fleet, trials: [ping({ cpu_client: 0 }, 'ping'), ping({ cpu_client: 1 }, 'fping')] }, 2, facts())).toEqual([]);
  expect(placementWarnings({ fleet, trials: [ping({}, 'ping')] }, 2, facts())[0]).toMatch(/^1 ping trial runs both ends.*\(ping: `cpus: \{ client: 0 \}`\)/);
  // A tool with a server still needs both.
  expect(placementWarnings({ fleet, trials: [ping({ cpu_client: 0 }, 'iperf')] }, 2, facts())[0]).toMatch(/^1 iperf trial runs/);
});

it("counts a synchronized trial's flows as flows, and tells to pin the load block", () => {
  const fleet = [host('c'), host('s')];
  const flow = (tool: string) => ({ label: tool, tool, client: 'c', server: 's', params: {} });
  const load = { ...trial({}), tool: 'load', flows: [flow('netperf'), flow('netperf'), flow('ping')] } as unknown as PlannedTrial;
  const [warning] = placementWarnings({ fleet, trials: [load] }, 2, facts());
  expect(warning).toMatch(/^3 netperf, ping trials and flows run both ends/);
  expect(warning).toContain('(load (every flow of the test): `cpus: { client: 0, server: 1 }`)');
  const mesh = { ...trial({}), flows: [flow('netperf')] } as unknown as PlannedTrial;
  expect(placementWarnings({ fleet, trials: [mesh] }, 2, facts())[0]).toMatch(/^1 netperf trial or flow runs both ends.*\(cpu_client_affinity, cpu_server_affinity\)\.$/);
});

it("gives a third-party tool and cloud the built-ins' treatment: their declarations decide", () => {
  const fleet = [host('c', 'my-vms'), host('s', 'my-vms')];
  const custom = (params: Record<string, number>) => ({ ...trial(params), tool: 'thirdparty' }) as PlannedTrial;
  // A cloud that does not declare sharesMachineCpus is never warned about.
  expect(placementWarnings({ fleet, trials: [custom({})] }, 2, facts())).toEqual([]);
  const mine = (tools: ReadonlyMap<string, ToolPlacement>) => facts(tools, ['my-vms']);
  expect(placementWarnings({ fleet, trials: [custom({})] }, 2, mine(new Map()))[0]).toMatch(/^1 thirdparty trial runs both ends/);
  expect(placementWarnings({ fleet, trials: [custom({})] }, 2, mine(new Map([['thirdparty', 'insensitive' as const]])))).toEqual([]);
  const byTaskset = new Map([['thirdparty', { pinned: (p: Readonly<Record<string, unknown>>) => p['taskset'] !== undefined, howToPin: '`taskset: 3`' }]]);
  expect(placementWarnings({ fleet, trials: [custom({ taskset: 3 })] }, 2, mine(byTaskset))).toEqual([]);
  const [warning] = placementWarnings({ fleet, trials: [custom({ cpu_client: 0, cpu_server: 1 })] }, 2, mine(byTaskset));
  expect(warning).toMatch(/^1 thirdparty trial runs/);
  expect(warning).toContain('(thirdparty: `taskset: 3`)');
  // A client-only third-party tool uses the same kit declaration as ping.
  expect(placementWarnings({ fleet, trials: [custom({ cpu_client: 0 })] }, 2, mine(new Map([['thirdparty', clientOnlyPlacement]])))).toEqual([]);
});
