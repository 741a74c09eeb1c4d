import { pinnedArgv } from '@netbench/plugin-api/tool-kit';
import { expect, it } from 'vitest';
import { iperfSchema } from './schema.js';
import { clientArgv, serverArgv } from './trial-settings.js';
import { iperfTrials } from './trials.js';

it('pins client and server processes with taskset -c, recorded as cpu_client/cpu_server', () => {
  const [trial] = iperfTrials(iperfSchema.parse({ protocol: 'tcp', duration: 2, cpus: { client: 0, server: 1 } }));
  expect(trial!.params).toMatchObject({ cpu_client: 0, cpu_server: 1 });
  expect(pinnedArgv(clientArgv(trial!.params, '10.0.0.2', 5001), trial!.params.cpu_client).slice(0, 5)).toEqual(['taskset', '-c', '0', 'iperf', '-c']);
  expect(pinnedArgv(serverArgv(trial!.params, 5001), trial!.params.cpu_server).slice(0, 5)).toEqual(['taskset', '-c', '1', 'iperf', '-s']);
  const [unpinned] = iperfTrials(iperfSchema.parse({ protocol: 'tcp', duration: 2 }));
  expect(unpinned!.params).not.toHaveProperty('cpu_client');
  expect(pinnedArgv(serverArgv(unpinned!.params, 5001), unpinned!.params.cpu_server)[0]).toBe('iperf');
});

it('refuses a CPU that is not a CPU number', () => {
  expect(iperfSchema.safeParse({ cpus: { client: -1 } }).success).toBe(false);
  expect(iperfSchema.safeParse({ cpus: { client: 0, sever: 1 } }).success).toBe(false);
});
