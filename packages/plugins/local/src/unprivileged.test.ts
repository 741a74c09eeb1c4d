import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { runCommand } from '@netbench/plugin-api/cloud-kit';
import { expect, it } from 'vitest';
import { testRunId } from './test-support/lab.js';

const probe = fileURLToPath(new URL('./test-support/unprivileged-probe.mjs', import.meta.url));

interface ProbeOutput {
  uid: number;
  caps: { root: boolean; netns: boolean; detail: Record<string, string> };
  shapedPreflight: string;
  hosts: { id: string; internalIp: string; labels: Record<string, string> }[];
  warnings: string[];
  idInHost: string;
  iperfBitsPerSecond: number | null;
  stragglerExit: string | number | null;
  teardownErrors: string[];
  resources: string[];
  error?: string;
}

// A real unprivileged process: uid nobody, no capabilities, no way to regain them.
it('falls back to loopback hosts, with a warning, when run without privileges', async () => {
  const runId = testRunId();
  const port = String(randomInt(20_000, 40_000));
  const result = await runCommand(
    ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', process.execPath, probe, runId, port],
    { timeoutMs: 60_000 },
  );
  expect(result.code, result.stderr).toBe(0);
  const out = JSON.parse(result.stdout) as ProbeOutput;
  expect(out.error, result.stderr).toBeUndefined();

  expect(out.uid).not.toBe(0);
  expect(out.caps.root).toBe(false);
  expect(out.caps.netns).toBe(false);
  expect(out.caps.detail.netns).toMatch(/CAP_NET_ADMIN/);

  expect(out.shapedPreflight).toMatch(/^UnsupportedError: local: host shaped \(link\.rate\) asks for link shaping, which needs network namespaces/);
  expect(out.hosts.map((h) => h.internalIp)).toEqual(['127.0.0.1', '127.0.0.1']);
  expect(out.hosts[0]?.labels.isolation).toBe('loopback');
  expect(out.warnings.join('\n')).toMatch(/127\.0\.0\.1: no link shaping and no isolation/);
  expect(out.warnings.join('\n')).toMatch(/address is ignored on loopback hosts \(server\)/);
  expect(out.idInHost).toBe(String(out.uid));
  expect(out.iperfBitsPerSecond).toBeGreaterThan(1e6);

  expect(out.resources).toEqual(['process spawned@server', 'process spawned@client']);
  expect(out.teardownErrors).toEqual([]);
  expect(out.stragglerExit).toBe('SIGTERM');
}, 60_000);
