import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { sweepTunnelEnds } from './sweep.js';

// A private stand-in for /dev/shm: the real one holds other runs' tunnels, which a test must never sweep.
const base = existsSync('/dev/shm') ? '/dev/shm' : undefined;
let shm: string | undefined;
afterEach(() => { if (shm) rmSync(shm, { recursive: true, force: true }); });

describe.skipIf(!base)('cleanup --all sweeping tunnel ends by their directory', () => {
  test('an end whose run.lock names a live process is spared (a run from another runs folder); once it is dead, the end is undone', async () => {
    shm = mkdtempSync(join(base!, 'nbt-sweep-'));
    const runId = '20261128-120000-sweep1';
    const end = join(shm, `netbench-${runId}`, 'wg-a');
    mkdirSync(end, { recursive: true });
    writeFileSync(join(end, 'private.key'), 'not a real key\n');
    // The "run" is a child process; its lock is what `tunnelUp` writes on each end.
    const run = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(end, 'run.lock'), `${JSON.stringify({ pid: run.pid, hostname: hostname(), runId })}\n`);

    const alive = await sweepTunnelEnds({ excludeRunIds: [] }, shm);
    expect(alive.deleted).toEqual([]);
    expect(alive.failed).toEqual([]);
    expect(alive.spared.map((s) => [s.resource.id, s.reason])).toEqual([['wg-a', `in use by live run ${runId} (pid ${run.pid})`]]);
    expect(existsSync(join(end, 'private.key'))).toBe(true);

    run.kill('SIGKILL');
    await new Promise((resolve) => run.once('exit', resolve));
    const dead = await sweepTunnelEnds({ excludeRunIds: [] }, shm);
    expect(dead.failed).toEqual([]);
    expect(dead.deleted.map((r) => r.id)).toEqual(['wg-a']);
    expect(existsSync(join(shm, `netbench-${runId}`))).toBe(false);
  });
});
