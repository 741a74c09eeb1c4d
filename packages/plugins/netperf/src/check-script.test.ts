import { type Host, processHost } from '@netbench/plugin-api';
import { testTrialContext } from '@netbench/plugin-api/testing';
import { describe, expect, it } from 'vitest';
import { checkNetperf } from './check.js';
import { checkScript, readCheckOutput } from './check-script.js';

describe('netperf check script', () => {
  it('holds only the two port numbers it was given, and refuses a bad port', () => {
    const [shell, flag, script] = checkScript(40002);
    expect([shell, flag]).toEqual(['sh', '-c']);
    expect(script).toContain('-p 40002');
    expect(script).toContain('-P ,40003');
    expect(script).not.toMatch(/sleep 0\.[0-9]+; done/);
    expect(() => checkScript(80)).toThrow(RangeError);
    expect(() => checkScript(Number.NaN)).toThrow(RangeError);
  });

  it("splits the output at the markers, with each part's exit code", () => {
    const text = 'Netperf version 2.7.0\n@@netbench-check probe 0\nsh: 1: netserver: not found\n@@netbench-check netserver 127\n';
    expect(readCheckOutput(text)).toEqual({
      probe: { output: 'Netperf version 2.7.0', code: 0 },
      netserver: { output: 'sh: 1: netserver: not found', code: 127 },
    });
    expect(readCheckOutput('sh: not found')).toEqual({});
  });

  it('checks a real host in one command, leaving no netserver behind', async () => {
    const host = processHost({ id: 'here', name: 'here', cloud: 'local', internalIp: '127.0.0.1' });
    const commands: string[][] = [];
    const counting: Host = {
      ...host,
      exec: (argv, options) => {
        commands.push([...argv]);
        return host.exec(argv, options);
      },
    };
    const t = testTrialContext();
    try {
      const info = await checkNetperf(counting, t.ctx);
      expect(info.version).toMatch(/^2\./);
      // The self-test's banner was read: demo is known (true or false), not 'unknown'.
      expect(typeof info.features.demo).toBe('boolean');
      expect(commands).toHaveLength(1);
      const port = /-p (\d+)/.exec(commands[0]![2]!)![1]!;
      const listening = await host.exec(['ss', '-Hltn', `sport = :${port}`]);
      expect(listening.stdout.trim()).toBe('');
    } finally {
      t.dispose();
    }
  });
});
