import { describe, expect, it } from 'vitest';
import { pingSchema } from './schema.js';
import { type PingTrialSettings, pingArgv } from './trial-settings.js';
import { pingTrials } from './trials.js';

describe('pingSchema', () => {
  it('fills defaults', () => {
    expect(pingSchema.parse({})).toEqual({ count: 100, flood: false, size: 56, direction: 'both' });
  });

  it('is strict and names every bad field', () => {
    const result = pingSchema.safeParse({ count: 0, interval: 0.0001, direction: 'sideways', colour: 'red' });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.') || issue.message);
    expect(paths).toEqual(expect.arrayContaining(['count', 'interval', 'direction']));
    expect(result.error!.issues.some((issue) => issue.code === 'unrecognized_keys')).toBe(true);
  });
});

describe('pingTrials', () => {
  it('makes one icmp trial per direction for both, timed count × interval', () => {
    const trials = pingTrials(pingSchema.parse({ count: 50, interval: 0.01 }));
    expect(trials).toEqual([
      { test: 'icmp', params: { direction: 'forward', count: 50, size: 56, flood: false, interval: 0.01 }, estimatedSeconds: 50 * 0.01 + 1 },
      { test: 'icmp', params: { direction: 'reverse', count: 50, size: 56, flood: false, interval: 0.01 }, estimatedSeconds: 50 * 0.01 + 1 },
    ]);
  });

  it('uses the 0.2 s default interval, and none for flood', () => {
    const [normal] = pingTrials(pingSchema.parse({ direction: 'forward' }));
    expect(normal!.params.interval).toBe(0.2);
    expect(normal!.estimatedSeconds).toBe(100 * 0.2 + 1);
    const flood = pingTrials(pingSchema.parse({ direction: 'reverse', flood: true, count: 1000, timeout: 2 }));
    expect(flood).toEqual([{ test: 'icmp', params: { direction: 'reverse', count: 1000, size: 56, flood: true, timeout: 2 }, estimatedSeconds: 1000 * 0.01 + 2 }]);
  });
});

describe('pingArgv', () => {
  it('builds argv from the trial params, never a shell string', () => {
    const [trial] = pingTrials(pingSchema.parse({ direction: 'forward', count: 5, interval: 0.5, size: 1200, timeout: 1 }));
    expect(pingArgv(trial!.params, '10.0.0.2')).toEqual(['env', 'LC_ALL=C', 'ping', '-n', '-D', '-c', '5', '-i', '0.5', '-s', '1200', '-W', '1', '--', '10.0.0.2']);
    const [flood] = pingTrials(pingSchema.parse({ direction: 'forward', flood: true, count: 10 }));
    expect(pingArgv(flood!.params, 'fe80::1')).toEqual(['env', 'LC_ALL=C', 'ping', '-n', '-D', '-c', '10', '-s', '56', '-f', '--', 'fe80::1']);
    // An address that reads as an option never reaches argv (fping -f would read a file).
    expect(() => pingArgv(flood!.params, '-f/etc/passwd')).toThrow(/ping target "-f\/etc\/passwd" is not an IP address or host name/);
  });

  it('takes only the parameters its trials make: anything else is a type error, not a second parse', () => {
    // @ts-expect-error 'both' is a block setting, never a trial's direction (npm test type-checks tests)
    const made: PingTrialSettings = { direction: 'both', count: 1, size: 56, flood: false };
    expect(made.direction).toBe('both');
    // What trials make is typed: each trial's direction is one way.
    expect(pingTrials(pingSchema.parse({ direction: 'both', count: 1 })).map((t) => t.params.direction)).toEqual(['forward', 'reverse']);
  });
});

describe('interval sweeps', () => {
  it('a list of intervals makes one trial per interval and direction', () => {
    const trials = pingTrials(pingSchema.parse({ interval: [0.01, 0.2, 1], direction: 'both', count: 10 }));
    expect(trials.map((t) => [t.params.interval, t.params.direction])).toEqual([
      [0.01, 'forward'],
      [0.01, 'reverse'],
      [0.2, 'forward'],
      [0.2, 'reverse'],
      [1, 'forward'],
      [1, 'reverse'],
    ]);
    expect(trials[4]!.estimatedSeconds).toBe(11);
    expect(pingSchema.safeParse({ interval: [] }).success).toBe(false);
    expect(pingSchema.safeParse({ interval: [0.0001] }).success).toBe(false);
  });
});
