import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localCapabilities, onPath } from './capabilities.js';
import { checkRequests } from './preflight.js';
import { request } from './test-support/lab.js';

// the qdisc probes (three throw-away namespaces with `tc`) are for shaped links only.
describe('local preflight: what it probes', () => {
  it('checks an unshaped lab with the namespace facts alone: no qdisc probe', async () => {
    const { caps } = await checkRequests('20261128-120000-probe1', [request('client'), request('server')]);
    expect(caps.netns).toBe(true);
    expect(Object.keys(caps.detail).sort()).toEqual(['netns', 'root']);
    expect('tbf' in caps || 'netem' in caps).toBe(false);
    // iproute2 found on PATH, with no `ip -V` process on the run's path.
    expect(caps.detail.netns).toMatch(/^available \(iproute2 at \/\S+\/ip\)$/);
  });

  it("doctor still gets iproute2's version", async () => {
    expect((await localCapabilities()).detail.netns).toMatch(/^available \(ip utility, iproute2-\S+/);
  });

  it('looks up a program on PATH as a spawn would: the first directory with an executable file of that name', async () => {
    const root = mkdtempSync(join(tmpdir(), 'netbench-onpath-'));
    try {
      const [a, b, c] = ['a', 'b', 'c'].map((d) => join(root, d));
      for (const dir of [a!, b!, c!]) mkdirSync(dir);
      writeFileSync(join(a!, 'tool'), '#!/bin/sh\n'); // not executable: skipped
      writeFileSync(join(b!, 'tool'), '#!/bin/sh\n');
      chmodSync(join(b!, 'tool'), 0o755);
      writeFileSync(join(c!, 'tool'), '#!/bin/sh\n');
      chmodSync(join(c!, 'tool'), 0o755);
      expect(await onPath('tool', [a, b, c].join(':'))).toBe(join(b!, 'tool'));
      expect(await onPath('tool', [a, join(root, 'missing')].join(':'))).toBeUndefined();
      expect(await onPath('no-such-tool-anywhere')).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('still refuses a shaped link the kernel cannot shape, naming host and field', async () => {
    // This kernel has no netem (README: tbf and htb only); where it has, the check passes and says nothing.
    const outcome = await checkRequests('20261128-120000-probe2', [request('client', { link: { delay: '5ms' } }), request('server')]).then(
      () => 'accepted',
      (e: unknown) => (e as Error).message,
    );
    expect(outcome === 'accepted' || /host client \(link\.delay\).*netem/.test(outcome), outcome).toBe(true);
  });
});
