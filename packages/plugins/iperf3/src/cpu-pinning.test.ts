import { pinnedArgv } from '@netbench/plugin-api/tool-kit';
import { expect, it } from 'vitest';
import { iperf3Schema } from './schema.js';
import { clientArgv, serverArgv } from './trial-settings.js';
import { iperf3Trials } from './trials.js';

it('pins client and server processes with taskset -c, recorded as cpu_client/cpu_server', () => {
  const [trial] = iperf3Trials(iperf3Schema.parse({ protocol: 'tcp', duration: 2, cpus: { client: 0, server: 1 } }));
  expect(trial!.params).toMatchObject({ cpu_client: 0, cpu_server: 1 });
  expect(pinnedArgv(clientArgv(trial!.params, '10.0.0.2', 5201), trial!.params.cpu_client).slice(0, 5)).toEqual(['taskset', '-c', '0', 'iperf3', '-c']);
  expect(pinnedArgv(serverArgv(5201), trial!.params.cpu_server)).toEqual(['taskset', '-c', '1', 'iperf3', '-s', '-1', '-p', '5201', '-J']);
  const [unpinned] = iperf3Trials(iperf3Schema.parse({ protocol: 'tcp', duration: 2 }));
  expect(pinnedArgv(serverArgv(5201), unpinned!.params.cpu_server)[0]).toBe('iperf3');
});
