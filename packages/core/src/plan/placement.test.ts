import { expect, it } from 'vitest';
import type { FleetHost, PlannedTrial } from './types.js';
import { placementWarnings } from './placement.js';

const host = (id: string, cloud = 'local'): FleetHost => ({ id, name: id, cloud, config: {} });
const trial = (params: Record<string, number>, client = 'c', server = 's'): PlannedTrial => ({ id: 't', tool: 'netperf', client, server, params }) as unknown as PlannedTrial;

it('warns once on a small machine when local-lab trials run unpinned', () => {
  const fleet = [host('c'), host('s')];
  const [warning, ...rest] = placementWarnings({ fleet, trials: [trial({}), trial({ cpu_client: 0 })] }, 2);
  expect(rest).toEqual([]);
  expect(warning).toMatch(/^2 netperf trials run both ends on this machine's 2 CPUs without pinning: .*cpus: \{ client: 0, server: 1 \}/);
});

it('is quiet when pinned, on a larger machine, or off the lab', () => {
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [trial({ cpu_client: 0, cpu_server: 1 })] }, 2)).toEqual([]);
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [trial({})] }, 16)).toEqual([]);
  expect(placementWarnings({ fleet: [host('c', 'aws'), host('s', 'aws')], trials: [trial({})] }, 2)).toEqual([]);
});

it('counts http trials pinned by their CPU lists (clientCpus/serverCpus of the block are cpu_client/cpu_server in params)', () => {
  const http = (params: Record<string, string>) => ({ ...trial({}), tool: 'http', params }) as unknown as PlannedTrial;
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [http({ cpu_client: '1', cpu_server: '0' })] }, 2)).toEqual([]);
  expect(placementWarnings({ fleet: [host('c'), host('s')], trials: [http({ cpu_client: '1' })] }, 2)[0]).toMatch(/^1 http trial runs both ends/);
});

it('counts ping and fping as pinned with their client alone (no server process)', () => {
  const fleet = [host('c'), host('s')];
  const ping = (params: Record<string, number>, tool: string) => ({ ...trial(params), tool }) as PlannedTrial;
  expect(placementWarnings({ fleet, trials: [ping({ cpu_client: 0 }, 'ping'), ping({ cpu_client: 1 }, 'fping')] }, 2)).toEqual([]);
  expect(placementWarnings({ fleet, trials: [ping({}, 'ping')] }, 2)[0]).toMatch(/^1 ping trial runs both ends/);
  // A tool with a server still needs both.
  expect(placementWarnings({ fleet, trials: [ping({ cpu_client: 0 }, 'iperf')] }, 2)[0]).toMatch(/^1 iperf trial runs/);
});

it('counts a synchronized trial\'s flows as flows, and names the load block among those that pin', () => {
  const fleet = [host('c'), host('s')];
  const flow = (tool: string) => ({ label: tool, tool, client: 'c', server: 's', params: {} });
  const load = { ...trial({}), tool: 'load', flows: [flow('netperf'), flow('netperf'), flow('ping')] } as unknown as PlannedTrial;
  const [warning] = placementWarnings({ fleet, trials: [load] }, 2);
  expect(warning).toMatch(/^3 netperf, ping trials and flows run both ends/);
  expect(warning).toMatch(/\(netperf, iperf3, iperf, irtt, and load: every flow of the test; ping and fping: `cpus: \{ client: 0 \}`; http: `clientCpus: '0'`, `serverCpus: '1'`\)/);
  expect(warning).not.toMatch(/cannot be pinned/);
  const mesh = { ...trial({}), flows: [flow('netperf')] } as unknown as PlannedTrial;
  expect(placementWarnings({ fleet, trials: [mesh] }, 2)[0]).toMatch(/^1 netperf trial or flow runs both ends.*\(cpu_client_affinity, cpu_server_affinity\)\.$/);
});

it('follows a tool\'s own placement declaration: insensitive is never warned about, pinned(params) decides for its own options', () => {
  const fleet = [host('c'), host('s')];
  const custom = (params: Record<string, number>) => ({ ...trial(params), tool: 'thirdparty' }) as PlannedTrial;
  expect(placementWarnings({ fleet, trials: [custom({})] }, 2)[0]).toMatch(/^1 thirdparty trial runs both ends/);
  expect(placementWarnings({ fleet, trials: [custom({})] }, 2, new Map([['thirdparty', 'insensitive' as const]]))).toEqual([]);
  const byTaskset = new Map([['thirdparty', { pinned: (p: Readonly<Record<string, unknown>>) => p['taskset'] !== undefined }]]);
  expect(placementWarnings({ fleet, trials: [custom({ taskset: 3 })] }, 2, byTaskset)).toEqual([]);
  expect(placementWarnings({ fleet, trials: [custom({ cpu_client: 0, cpu_server: 1 })] }, 2, byTaskset)[0]).toMatch(/^1 thirdparty trial runs/);
});
