import { pinnedArgv } from '@netbench/plugin-api/tool-kit';
import { expect, it } from 'vitest';
import { pingSchema } from './schema.js';
import { pingArgv } from './trial-settings.js';
import { pingTrials } from './trials.js';

it('pins the pinging process with taskset -c, recorded as cpu_client', () => {
  const trials = pingTrials(pingSchema.parse({ count: 5, direction: 'both', cpus: { client: 1 } }));
  expect(trials).toHaveLength(2);
  for (const trial of trials) {
    expect(trial.params.cpu_client).toBe(1);
    expect(trial.params).not.toHaveProperty('cpu_server');
    expect(pinnedArgv(pingArgv(trial.params, '10.0.0.2'), trial.params.cpu_client).slice(0, 6)).toEqual(['taskset', '-c', '1', 'env', 'LC_ALL=C', 'ping']);
  }
  const [unpinned] = pingTrials(pingSchema.parse({ count: 5 }));
  expect(unpinned!.params).not.toHaveProperty('cpu_client');
  expect(pinnedArgv(pingArgv(unpinned!.params, '10.0.0.2'), unpinned!.params.cpu_client)[0]).toBe('env');
});

it('refuses a server CPU: ping has no server process', () => {
  const result = pingSchema.safeParse({ cpus: { client: 0, server: 1 } });
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  expect(issue.path).toEqual(['cpus', 'server']);
  expect(issue.message).toBe('ping has no server process (the kernel answers echo requests): pin only cpus.client');
  expect(pingSchema.safeParse({ cpus: { client: -1 } }).success).toBe(false);
});
