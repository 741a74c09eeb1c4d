import { describe, expect, it } from 'vitest';
import { iperf3Schema } from './schema.js';
import { clientArgv, serverArgv } from './trial-settings.js';
import { iperf3Trials } from './trials.js';

describe('iperf3Schema', () => {
  it('fills defaults', () => {
    expect(iperf3Schema.parse({})).toEqual({
      protocol: 'tcp',
      streams: 1,
      duration: 10,
      omit: 0,
      reverse: false,
      bidir: false,
      zerocopy: false,
      interval: 1,
    });
  });

  it('is strict and reports every bad field at once', () => {
    const result = iperf3Schema.safeParse({ protocol: 'sctp', streams: [1, 0], bitrate: 'fast', window: '4Q', colour: 1 });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['protocol', 'streams.1', 'bitrate', 'window']));
    expect(result.error!.issues.find((issue) => issue.path[0] === 'protocol')!.message).toBe('protocol: tcp, udp, or a list of them');
    expect(result.error!.issues.some((issue) => issue.code === 'unrecognized_keys')).toBe(true);
  });

  it('refuses reverse together with bidir', () => {
    const result = iperf3Schema.safeParse({ reverse: true, bidir: true });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['bidir'], message: expect.stringMatching(/drop reverse/) })]);
  });

  it('accepts iperf3 size and rate syntax', () => {
    expect(iperf3Schema.parse({ bitrate: '1.5G', length: '128K', window: 4194304 })).toMatchObject({ bitrate: '1.5G', length: '128K', window: 4194304 });
    expect(iperf3Schema.parse({ bitrate: '100M/10' }).bitrate).toBe('100M/10');
  });
});

describe('iperf3Trials', () => {
  it('makes protocol × streams trials; UDP gets a 1G default rate, TCP none', () => {
    const trials = iperf3Trials(iperf3Schema.parse({ protocol: ['tcp', 'udp'], streams: [1, 4], duration: 5, omit: 2 }));
    expect(trials.map((t) => [t.test, t.params.streams, t.params.bitrate, t.estimatedSeconds])).toEqual([
      ['tcp', 1, undefined, 7],
      ['tcp', 4, undefined, 7],
      ['udp', 1, '1G', 7],
      ['udp', 4, '1G', 7],
    ]);
    expect(trials[0]!.params).toEqual({ protocol: 'tcp', streams: 1, duration: 5, omit: 2, interval: 1, reverse: false, bidir: false, zerocopy: false });
  });

  it('keeps every optional setting as a param (they become labels)', () => {
    const [trial] = iperf3Trials(iperf3Schema.parse({ protocol: 'udp', bitrate: '50M', mss: 1400, length: 1200, window: '1M', reverse: true }));
    expect(trial!.params).toMatchObject({ bitrate: '50M', mss: 1400, length: 1200, window: '1M', reverse: true });
  });
});

describe('argv', () => {
  it('client argv says every setting, as separate arguments', () => {
    const [trial] = iperf3Trials(
      iperf3Schema.parse({ protocol: 'udp', streams: 2, duration: 3, bitrate: '50M', mss: 1400, length: '1K', window: '1M', bidir: true, zerocopy: true, interval: 0.5 }),
    );
    expect(clientArgv(trial!.params, '10.0.0.2', 5207)).toEqual([
      'iperf3',
      '-c',
      '10.0.0.2',
      '-p',
      '5207',
      '-J',
      '-t',
      '3',
      '-O',
      '0',
      '-i',
      '0.5',
      '-P',
      '2',
      '-u',
      '-b',
      '50M',
      '--bidir',
      '-M',
      '1400',
      '-l',
      '1K',
      '-w',
      '1M',
      '-Z',
    ]);
    const [tcp] = iperf3Trials(iperf3Schema.parse({ reverse: true }));
    expect(clientArgv(tcp!.params, 'fd00::2', 5201)).toEqual(['iperf3', '-c', 'fd00::2', '-p', '5201', '-J', '-t', '10', '-O', '0', '-i', '1', '-P', '1', '-R']);
  });

  it('server argv is a one-off JSON server on the given port', () => {
    expect(serverArgv(5250)).toEqual(['iperf3', '-s', '-1', '-p', '5250', '-J']);
    expect(serverArgv(5250, 0.5)).toEqual(['iperf3', '-s', '-1', '-p', '5250', '--forceflush', '-i', '0.5']);
  });
});
