import { pinnedArgv } from '@netbench/plugin-api/tool-kit';
import { expect, it } from 'vitest';
import { fpingSchema } from './schema.js';
import { fpingArgv } from './trial-settings.js';
import { fpingTrials } from './trials.js';

it('pins the pinging process with taskset -c, recorded as cpu_client', () => {
  const trials = fpingTrials(fpingSchema.parse({ count: 5, direction: 'both', cpus: { client: 1 } }));
  expect(trials).toHaveLength(2);
  for (const trial of trials) {
    expect(trial.params.cpu_client).toBe(1);
    expect(trial.params).not.toHaveProperty('cpu_server');
    expect(pinnedArgv(fpingArgv(trial.params, '10.0.0.2'), trial.params.cpu_client).slice(0, 6)).toEqual(['taskset', '-c', '1', 'env', 'LC_ALL=C', 'fping']);
  }
  const [unpinned] = fpingTrials(fpingSchema.parse({ count: 5 }));
  expect(unpinned!.params).not.toHaveProperty('cpu_client');
  expect(pinnedArgv(fpingArgv(unpinned!.params, '10.0.0.2'), unpinned!.params.cpu_client)[0]).toBe('env');
});

it('refuses a server CPU: fping has no server process', () => {
  const result = fpingSchema.safeParse({ cpus: { client: 0, server: 1 } });
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  expect(issue.path).toEqual(['cpus', 'server']);
  expect(issue.message).toBe('fping has no server process (the kernel answers echo requests): pin only cpus.client');
  expect(fpingSchema.safeParse({ cpus: { client: -1 } }).success).toBe(false);
});
