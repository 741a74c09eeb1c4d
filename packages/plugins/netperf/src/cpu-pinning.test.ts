import { describe, expect, it } from 'vitest';
import { netperfArgv } from './argv.js';
import { netperfBlockSchema } from './schema.js';
import { netperfTrials } from './trials.js';

const ports = { control: 20000, data: 20001 };
const trialsOf = (block: Record<string, unknown>) => netperfTrials(netperfBlockSchema.parse({ tests: ['TCP_RR'], duration: 5, ...block }));
const argvOf = (block: Record<string, unknown>) => {
  const [trial] = trialsOf(block);
  return netperfArgv('TCP_RR', trial!.params, '10.0.0.2', ports);
};

describe('netperf CPU pinning (cpus: { client, server })', () => {
  it('becomes -T client,server before the test-specific options, and trial parameters cpu_client/cpu_server', () => {
    const argv = argvOf({ cpus: { client: 0, server: 1 } });
    expect(argv.slice(argv.indexOf('-T'), argv.indexOf('-T') + 2)).toEqual(['-T', '0,1']);
    expect(argv.indexOf('-T')).toBeLessThan(argv.indexOf('--'));
    expect(trialsOf({ cpus: { client: 0, server: 1 } })[0]!.params).toMatchObject({ cpu_client: 0, cpu_server: 1 });
  });

  it('pins one side only, leaving the other side empty (netperf leaves it unbound)', () => {
    expect(argvOf({ cpus: { server: 1 } })).toContain(',1');
    expect(argvOf({ cpus: { client: 0 } })).toContain('0,');
    expect(trialsOf({ cpus: { server: 1 } })[0]!.params).not.toHaveProperty('cpu_client');
  });

  it('adds nothing unpinned, and refuses a negative or fractional CPU', () => {
    expect(argvOf({})).not.toContain('-T');
    expect(trialsOf({})[0]!.params).not.toHaveProperty('cpu_client');
    expect(netperfBlockSchema.safeParse({ cpus: { client: -1 } }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ cpus: { client: 0.5 } }).success).toBe(false);
    expect(netperfBlockSchema.safeParse({ cpus: { clinet: 0 } }).success).toBe(false);
  });
});
