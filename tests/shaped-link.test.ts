import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';
import { metric, onlyRunDir, readResults } from './helpers/results.js';

// Proves shaping and measurement are both right: tc's token bucket at
// 200 Mbit/s on the server's egress, iperf3 from the server to the client.
describe('a link shaped to 200 Mbit/s', () => {
  it('measures 200 Mbit/s ±10 % with iperf3', async () => {
    const home = tempHome();
    const result = await runCli(['run', 'examples/shaped-link.yaml', '--runs-dir', join(home, 'runs'), '--set', 'benchmarks.0.duration=4'], {
      env: { NETBENCH_HOME: home },
    });
    expect(result.code, result.stderr).toBe(0);
    const { samples } = readResults(onlyRunDir(join(home, 'runs')));
    const received = metric(samples, 'Throughput', 'iperf3').filter((s) => s.labels.stream === undefined && s.labels.interval_start === undefined);
    expect(received.length).toBeGreaterThan(0);
    for (const sample of received) {
      expect(sample.unit).toBe('Mbits/sec');
      expect(sample.value).toBeGreaterThan(180);
      expect(sample.value).toBeLessThan(220);
    }
  });
});
