import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readEvents, waitFor } from './helpers/results.js';
import { openSandbox, type Sandbox, sandboxPossible } from './helpers/sandbox.js';

// `netbench cleanup --all` from one NETBENCH_HOME must not harm a run of another that is still going.
// Both processes run inside a private net/mount/pid sandbox: the sweep there sees this test's lab only,
// never the live labs of other users of this machine.
const spec = join(import.meta.dirname, 'scenarios/long-run/spec.yaml');

interface Report {
  deleted: { type: string; id: string }[];
  failed: unknown[];
  spared?: { resource: { type: string; id: string }; reason: string }[];
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await openSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe.runIf(sandboxPossible())('cleanup --all and a live run of another runs folder', () => {
  it('spares the live run (real namespaces), says which run and pid holds them; once that process is killed, removes its leftovers', async () => {
    const [homeA, homeB] = [tempHome(), tempHome()];
    const runsA = join(homeA, 'runs');
    const live = startCli(['run', spec, '--progress', 'none'], { env: { NETBENCH_HOME: homeA }, wrapper: sandbox.wrapper });
    const runDir = await waitFor(() => (existsSync(runsA) ? safeRunDir(runsA) : undefined), 60_000, 'the run folder');
    // The second trial (netperf, 60 s) is running: namespaces (the hosts' and the hub's), veths, bridge, netserver all exist.
    await waitFor(() => (readEvents(runDir).some((e) => e.type === 'trial-started' && e.index === 1) ? true : undefined), 90_000, 'the second trial');
    const runId = runDir.split('/').pop()!;
    const pid = (JSON.parse(readFileSync(join(runDir, 'run.lock'), 'utf8')) as { pid: number }).pid;
    const namespaces = () =>
      sandbox
        .exec(['ip', 'netns', 'list'])
        .split('\n')
        .map((l) => l.split(' ')[0]!)
        .filter((n) => n.startsWith(`nb-${runId}`))
        .sort();
    expect(namespaces()).toEqual([`nb-${runId}-@hub`, `nb-${runId}-client`, `nb-${runId}-server`]);

    // Another NETBENCH_HOME: the live run's folder is not in its runs folder. --cloud local: the Docker daemon is shared beyond the sandbox.
    const sweep = await runCli(['cleanup', '--all', '--cloud', 'local', '--json'], { env: { NETBENCH_HOME: homeB }, wrapper: sandbox.wrapper });
    expect(sweep.code, sweep.stderr).toBe(0);
    const spared = JSON.parse(sweep.stdout) as Report;
    expect(spared.deleted).toEqual([]);
    expect(spared.failed).toEqual([]);
    const reason = `in use by live run ${runId} (pid ${pid})`;
    expect(
      spared.spared
        ?.filter((s) => s.resource.type === 'netns')
        .map((s) => [s.resource.id, s.reason])
        .sort(),
    ).toEqual([
      [`nb-${runId}-@hub`, reason],
      [`nb-${runId}-client`, reason],
      [`nb-${runId}-server`, reason],
    ]);
    expect(spared.spared?.map((s) => s.resource.type)).toEqual(expect.arrayContaining(['veth', 'bridge']));
    expect(namespaces()).toHaveLength(3);
    // The run is unharmed: still measuring, the netperf trial not failed.
    expect(live.child.exitCode).toBeNull();
    expect(readEvents(runDir).some((e) => e.type === 'trial-finished' && e.status === 'failed')).toBe(false);

    // The same in plain text.
    const text = await runCli(['cleanup', '--all', '--cloud', 'local', '--dry-run'], { env: { NETBENCH_HOME: homeB }, wrapper: sandbox.wrapper });
    expect(text.stdout).toContain(`spared netns nb-${runId}-client: ${reason}`);

    // `cleanup RUN` of the live run refuses without --force.
    const named = await runCli(['cleanup', runId, '--runs-dir', runsA, '--json'], { env: { NETBENCH_HOME: homeA }, wrapper: sandbox.wrapper });
    expect(named.code).not.toBe(0);
    // With --json the error is the JSON on stdout.
    expect(named.stdout + named.stderr).toContain(`run ${runId} is still in progress (pid ${pid})`);
    expect(namespaces()).toHaveLength(3);
    // --force passes the refusal; with --dry-run it only lists (this flag used to be ignored for a named run, which deleted).
    const forced = await runCli(['cleanup', runId, '--runs-dir', runsA, '--force', '--dry-run'], { env: { NETBENCH_HOME: homeA }, wrapper: sandbox.wrapper });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`would delete netns nb-${runId}-client`);
    expect(namespaces()).toHaveLength(3);

    // Killed with SIGKILL (no teardown): its leftovers are leftovers again, found from the other home by naming.
    sandbox.exec(['kill', '-KILL', String(pid)]);
    await live.done;
    const swept = await runCli(['cleanup', '--all', '--cloud', 'local', '--json'], { env: { NETBENCH_HOME: homeB }, wrapper: sandbox.wrapper });
    expect(swept.code, swept.stderr).toBe(0);
    const report = JSON.parse(swept.stdout) as Report;
    expect(report.failed).toEqual([]);
    expect(report.spared).toEqual([]);
    expect(
      report.deleted
        .filter((r) => r.type === 'netns')
        .map((r) => r.id)
        .sort(),
    ).toEqual([`nb-${runId}-@hub`, `nb-${runId}-client`, `nb-${runId}-server`]);
    expect(report.deleted.map((r) => r.type)).toEqual(expect.arrayContaining(['veth', 'bridge']));
    expect(namespaces()).toEqual([]);
    expect(sandbox.exec(['ip', '-o', 'link', 'show'])).not.toContain(`nb${runId.slice(-6).toLowerCase()}`);
    // The killed run's machine copy of run.lock went with its leftovers.
    expect(sandbox.exec(['ls', '-a', '/dev/shm'])).not.toContain(`netbench-${runId}`);
  });
});

function safeRunDir(runsDir: string): string | undefined {
  try {
    return onlyRunDir(runsDir);
  } catch {
    return undefined;
  }
}
