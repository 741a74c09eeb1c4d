import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';

// Shaping traps: tc reads `100Mbps` as megabytes per second (800 Mbit/s), and a
// rate shapes one host's egress, so a run measuring the other direction
// measures no shaping at all. Both are refused or warned before anything runs.
const dir = mkdtempSync(join(tmpdir(), 'nbt-shaping-traps-'));
function spec(name: string, rate: string, reverse: boolean): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
hosts:
  client: { cloud: local }
  server:
    cloud: local
    link: { rate: ${rate} }
benchmarks:
  - { tool: iperf3, client: client, server: server, protocol: tcp, duration: 1, reverse: ${String(reverse)} }
`,
  );
  return file;
}

describe('link.rate units and direction', () => {
  it('refuses an ambiguous unit at its line and column, saying what to write', async () => {
    const file = spec('ambiguous', '100Mbps', true);
    const result = await runCli(['validate', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${file}:6:19  hosts.server.link.rate  '100Mbps' is ambiguous: tc reads it as bytes per second (800 Mbit/s), most people mean bits (100 Mbit/s); write 100mbit for bits or 100MByte/s for bytes per second`,
    );
  });

  it('plan shows the rate in bits, and warns when no trial measures the shaped direction', async () => {
    const forward = await runCli(['plan', spec('forward', '100Mbit/s', false)]);
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout).toContain('egress 100 Mbit/s (link.rate 100Mbit/s)');
    expect(forward.stderr).toMatch(
      /warning: hosts\.server\.link\.rate shapes what server sends \(100 Mbit\/s\), but no trial sends bulk traffic from server \(the throughput trials send towards it: client → server\)/,
    );
    const json = await runCli(['plan', spec('bytes', '25MByte/s', true), '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { shaping: unknown[] }).shaping).toEqual([{ host: 'server', egressBitsPerSecond: 200e6, text: 'egress 200 Mbit/s (link.rate 25MByte/s)' }]);
    expect(json.stderr).not.toMatch(/shapes what/);
    // Publisher settings (secrets resolved) stay out of the printed plan.
    expect(JSON.parse(json.stdout)).not.toHaveProperty('publishSettings');
  });

  it('the run warns too (and still measures)', async () => {
    const home = tempHome('nbt-shaping-run-');
    const result = await runCli(['run', spec('run-forward', '100mbit', false), '--runs-dir', join(home, 'runs'), '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/hosts\.server\.link\.rate shapes what server sends \(100 Mbit\/s\), but no trial sends bulk traffic from server/);
  });
});
