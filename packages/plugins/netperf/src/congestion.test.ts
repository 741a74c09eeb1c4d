import { describe, expect, it } from 'vitest';
import { netperfArgv } from './argv.js';
import { parseNetperf } from './parse/parse.js';
import { netperfBlockSchema } from './schema.js';
import { netperfTrials } from './trials.js';

const ports = { control: 20000, data: 20001 };

describe('netperf congestion control', () => {
  it('passes -K algo,algo to TCP tests only, and asks TCP tests what each end used', () => {
    const trials = netperfTrials(netperfBlockSchema.parse({ tests: ['TCP_STREAM', 'UDP_RR'], congestion: 'cubic' }));
    const tcp = trials.find((t) => t.test === 'TCP_STREAM')!;
    const udp = trials.find((t) => t.test === 'UDP_RR')!;
    expect(tcp.params.congestion).toBe('cubic');
    expect(udp.params).not.toHaveProperty('congestion');
    const argv = netperfArgv('TCP_STREAM', tcp.params, '10.0.0.2', ports);
    expect(argv.slice(argv.indexOf('-K'), argv.indexOf('-K') + 2)).toEqual(['-K', 'cubic,cubic']);
    expect(argv.at(-1)).toMatch(/,LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL,COMMAND_LINE$/);
    const udpArgv = netperfArgv('UDP_RR', udp.params, '10.0.0.2', ports);
    expect(udpArgv).not.toContain('-K');
    expect(udpArgv.at(-1)).not.toContain('CONG_CONTROL');
    expect(netperfBlockSchema.safeParse({ congestion: 'cubic,reno' }).success).toBe(false);
  });

  it("labels client_cc and server_cc from netperf's own report", () => {
    const raw = [
      'MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 () port 0 AF_INET : demo',
      'Throughput,Throughput Units,Local Congestion Control Algorithm,Remote Congestion Control Algorithm',
      '3331.02,10^6bits/s,reno,cubic',
    ].join('\n');
    const [sample] = parseNetperf(raw);
    expect(sample!.labels).toMatchObject({ client_cc: 'reno', server_cc: 'cubic', test: 'TCP_STREAM' });
  });
});
