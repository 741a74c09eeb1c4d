import { describe, expect, it } from 'vitest';
import { iperfSchema } from './schema.js';
import { clientArgv, serverArgv } from './trial-settings.js';
import { iperfTrials } from './trials.js';

describe('iperfTrials', () => {
  it('one trial per protocol × streams; UDP gets a target rate; the test is the protocol', () => {
    const trials = iperfTrials(iperfSchema.parse({ protocol: ['tcp', 'udp'], streams: [1, 4], duration: 3 }));
    expect(trials.map((t) => [t.test, t.params.streams, t.params.bitrate])).toEqual([
      ['tcp', 1, undefined],
      ['tcp', 4, undefined],
      ['udp', 1, '1G'],
      ['udp', 4, '1G'],
    ]);
    expect(trials[0]!.estimatedSeconds).toBe(5);
    // Egress estimates: -b per stream times streams; TCP without -b has no known rate.
    expect(trials.map((t) => t.traffic)).toEqual([
      { direction: 'forward' },
      { direction: 'forward' },
      { direction: 'forward', bitsPerSecond: 1024 ** 3 },
      { direction: 'forward', bitsPerSecond: 4 * 1024 ** 3 },
    ]);
    expect(iperfTrials(iperfSchema.parse({ reverse: true, bitrate: '10m' }))[0]!.traffic).toEqual({ direction: 'reverse', bitsPerSecond: 1e7 });
  });

  it("builds argv arrays (never a shell string) with PKB's reporting flags", () => {
    const [trial] = iperfTrials(iperfSchema.parse({ protocol: 'udp', streams: 2, duration: 1, interval: 0.5, bitrate: '50M', length: 1200, window: '256K', nodelay: true }));
    const settings = trial!.params;
    expect(clientArgv(settings, '10.0.0.2', 5401)).toEqual([
      'iperf',
      '-c',
      '10.0.0.2',
      '-p',
      '5401',
      '-e',
      '-f',
      'm',
      '-t',
      '1',
      '-P',
      '2',
      '-i',
      '0.5',
      '-u',
      '-b',
      '50M',
      '-l',
      '1200',
      '-w',
      '256K',
      '-N',
    ]);
    expect(serverArgv(settings, 5401)).toEqual(['iperf', '-s', '-p', '5401', '-e', '-f', 'm', '-u', '-w', '256K']);
  });

  it('rejects unknown keys and bad values', () => {
    expect(iperfSchema.safeParse({ port: 1 }).success).toBe(false);
    expect(iperfSchema.safeParse({ bitrate: 'fast' }).success).toBe(false);
    expect(iperfSchema.safeParse({ streams: [] }).success).toBe(false);
  });
});
