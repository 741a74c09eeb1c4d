import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { linksOf, namespacesOf } from './helpers/leftovers.js';
import { onlyRunDir, readEvents, waitFor } from './helpers/results.js';

// The run folder lives on a 4 MiB tmpfs that the test fills up mid-run: every event, sample,
// raw-output and results write then fails with ENOSPC. Mounting needs root (CAP_SYS_ADMIN).
const spec = join(import.meta.dirname, 'scenarios/disk-full/spec.yaml');
let mountPoint = '';
let skipReason: string | undefined;

beforeAll(() => {
  if (process.getuid?.() !== 0) {
    skipReason = 'mounting a tmpfs needs root';
    return;
  }
  mountPoint = mkdtempSync(join(tmpdir(), 'nbt-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (error) {
    skipReason = `cannot mount a tmpfs here: ${(error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error)}`;
  }
});
afterAll(() => {
  if (!mountPoint) return;
  try {
    execFileSync('umount', [mountPoint], { stdio: 'pipe' });
  } catch {
    // Not mounted (skipped).
  }
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Write zeros into the tmpfs until it is full. */
function fillDisk(): void {
  const fd = openSync(join(mountPoint, `filler-${Date.now()}`), 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
}

function freeDisk(): void {
  for (const name of ['filler']) execFileSync('sh', ['-c', `rm -f -- "$1"/${name}-*`, 'sh', mountPoint]);
}

/** Processes in a run's namespaces (tool servers, the client), by pid. */
function pidsInNamespaces(runId: string): number[] {
  return namespacesOf(runId).flatMap((ns) => execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number));
}

/** Running (a zombie has exited and only waits for its parent to notice). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const qdiscsOf = (tag: string): string[] =>
  execFileSync('tc', ['qdisc', 'show'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(`dev nb${tag}`));

/** Start a run on the tmpfs and wait until it is measuring (hosts, links, qdiscs and netserver exist). */
async function startMeasuring(runsDir: string, home: string) {
  mkdirSync(runsDir, { recursive: true });
  const run = startCli(['run', spec, '--runs-dir', runsDir, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
  const runDir = await waitFor(
    () => {
      try {
        return onlyRunDir(runsDir);
      } catch {
        return undefined;
      }
    },
    60_000,
    'the run folder',
  );
  await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 60_000, 'the netperf trial');
  const runId = runDir.split('/').pop()!;
  const pids = pidsInNamespaces(runId);
  expect(namespacesOf(runId)).toHaveLength(3); // the two hosts' and the hub's
  expect(linksOf(runId.slice(-6)).length).toBeGreaterThan(0);
  expect(qdiscsOf(runId.slice(-6)).length + pids.length).toBeGreaterThan(0);
  return { ...run, runDir, runId, pids };
}

describe('a full disk does not stop teardown', () => {
  it('the disk fills up mid-run: the run tears everything down and exits with an error code that says results were lost', async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    const home = tempHome('netbench-e2e-full-');
    const { done, runId, pids } = await startMeasuring(join(mountPoint, 'runs-a'), home);
    expect(pids.length).toBeGreaterThan(0); // netserver at least
    fillDisk();
    const result = await done;
    freeDisk();
    // Not 0 (results.json and the json publisher could not be written), not 4 (nothing leaked).
    expect([1, 3], result.stderr).toContain(result.code);
    expect(result.stderr).toMatch(/ENOSPC/);
    expect(result.stdout + result.stderr).toMatch(/teardown done/);
    expect(namespacesOf(runId)).toEqual([]);
    expect(linksOf(runId.slice(-6))).toEqual([]);
    expect(qdiscsOf(runId.slice(-6))).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    rmSync(home, { recursive: true, force: true });
  });

  it('`netbench cleanup` succeeds on a full disk after a kill -9', async (ctx) => {
    if (skipReason) ctx.skip(skipReason);
    const home = tempHome('netbench-e2e-full-');
    const runsDir = join(mountPoint, 'runs-b');
    const { child, done, runId, pids } = await startMeasuring(runsDir, home);
    child.kill('SIGKILL');
    await done;
    expect(namespacesOf(runId)).toHaveLength(3); // really left behind (the two hosts and the hub)
    fillDisk();
    const cleanup = await runCli(['cleanup', runId, '--runs-dir', runsDir, '--json'], { env: { NETBENCH_HOME: home } });
    freeDisk();
    expect(cleanup.code, cleanup.stderr).toBe(0);
    const report = JSON.parse(cleanup.stdout) as { deleted: { type: string }[]; failed: unknown[] };
    expect(report.failed).toEqual([]);
    expect(report.deleted.map((r) => r.type)).toEqual(expect.arrayContaining(['netns', 'bridge']));
    expect(namespacesOf(runId)).toEqual([]);
    expect(linksOf(runId.slice(-6))).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    rmSync(home, { recursive: true, force: true });
  });
});
