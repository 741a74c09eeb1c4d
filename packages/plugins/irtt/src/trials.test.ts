import { describe, expect, it } from 'vitest';
import { irttSchema } from './schema.js';
import { clientArgv, goDuration, serverArgv } from './trial-settings.js';
import { irttTrials } from './trials.js';

describe('irtt trials and argv', () => {
  it('makes one trial per interval of a sweep', () => {
    const trials = irttTrials(irttSchema.parse({ interval: [0.001, 0.01, 1], duration: 5 }));
    expect(trials.map((t) => [t.test, t.params.interval, t.estimatedSeconds])).toEqual([
      ['udp_rtt', 0.001, 6],
      ['udp_rtt', 0.01, 6],
      ['udp_rtt', 1, 6],
    ]);
    expect(trials[0]!.params).not.toHaveProperty('dscp');
  });

  it('builds the client argv from parsed numbers, options ended by --', () => {
    const [trial] = irttTrials(irttSchema.parse({ interval: 0.0005, duration: 2.5, length: 172, dscp: 46, fill: 'rand' }));
    expect(clientArgv(trial!.params, '10.0.0.2', 2112, true)).toEqual([
      'irtt',
      'client',
      '-i',
      '500000ns',
      '-d',
      '2500000000ns',
      '-l',
      '172',
      '--dscp=46',
      '--fill=rand',
      '-o',
      '-',
      '--',
      '10.0.0.2:2112',
    ]);
    expect(clientArgv(trial!.params, 'fd00::2', 2113, false)).toContain('-q');
    expect(clientArgv(trial!.params, 'fd00::2', 2113, false).at(-1)).toBe('[fd00::2]:2113');
    expect(() => clientArgv(trial!.params, '-oops', 2112, false)).toThrow();
    expect(goDuration(0.1)).toBe('100000000ns');
    expect(serverArgv(2112)).toEqual(['irtt', 'server', '-b', ':2112', '-i', '0', '-l', '0', '-d', '0', '--set-src-ip']);
  });
});
