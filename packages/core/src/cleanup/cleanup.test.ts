import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { CleanupFilter } from '@netbench/plugin-api';
import { type AnyPlugin, definePlugin, LedgerFile, newRunId, readLedger } from '@netbench/plugin-api';
import { processState } from '@netbench/plugin-api/cloud-kit';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import labCloud, { type LabHostConfig } from '../engine/__fixtures__/lab-cloud.js';
import { exists, labResources, sweep } from '../engine/__fixtures__/lab-leftovers.js';
import { staticRegistry } from '../registry/static-registry.js';
import { connectSshHost } from '../transport/ssh/connect-ssh-host.js';
import { cleanupAll } from './cleanup-all.js';
import { cleanupRun } from './cleanup-run.js';

const run = promisify(execFile);
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const distUrl = (path: string) => pathToFileURL(join(dist, path)).href;

let root: string;
let runsDir: string;
beforeAll(() => {
  // The fresh processes below import the built core: `npx tsc -p packages/core` first.
  expect(existsSync(join(dist, 'engine', '__fixtures__', 'lab-cloud.js'))).toBe(true);
});
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'nbt-cleanup-'));
  runsDir = join(root, 'runs');
  // Runs are stored: into the test's folder, never the user's ~/.netbench.
  process.env['NETBENCH_DB'] = join(root, 'netbench.db');
});
afterEach(async () => {
  await sweep(runsDir);
  await rm(root, { recursive: true, force: true });
});

/** Install the lab plugins as npm packages under `<root>/plugins`, as a third party would. */
async function installLabPackages(): Promise<string> {
  const plugins = join(root, 'plugins');
  for (const [dir, name, kind, file] of [
    ['netbench-plugin-lab', 'lab', 'cloud', 'lab-cloud.js'],
    ['@acme/netbench-lab-echo', 'lab-echo', 'tool', 'lab-tool.js'],
  ] as const) {
    const pkg = join(plugins, 'node_modules', dir);
    await mkdir(pkg, { recursive: true });
    await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: dir, version: '1.0.0', type: 'module', main: 'index.js', netbench: { kind, name } }));
    await writeFile(join(pkg, 'index.js'), `export { default } from '${distUrl(`engine/__fixtures__/${file}`)}';\n`);
  }
  // Installed packages are used only when a package.json declares them.
  await writeFile(join(plugins, 'package.json'), JSON.stringify({ name: 'lab-project', dependencies: { 'netbench-plugin-lab': '1.0.0', '@acme/netbench-lab-echo': '1.0.0' } }));
  return plugins;
}

async function waitFor(predicate: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('cleanupRun', () => {
  it('deletes, from a fresh process, what a run killed with SIGKILL left behind', async () => {
    const plugins = await installLabPackages();
    const runId = newRunId();
    const runDir = join(runsDir, runId);
    const args = JSON.stringify({ plugins, root, runsDir, runId });
    const runner = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { runPlan, createRegistry } from '${distUrl('index.js')}';
      import { labPlan } from '${distUrl('engine/__fixtures__/lab-plan.js')}';
      const { plugins, root, runsDir, runId } = JSON.parse(process.env.NB_ARGS);
      await runPlan(labPlan({ root, runsDir, trials: [{ mode: 'sleep', seconds: 3 }] }), { registry: createRegistry({ searchDirs: [plugins] }), runId });
    `,
      ],
      { env: { ...process.env, NB_ARGS: args }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    runner.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const events = join(runDir, 'events.jsonl');
    await waitFor(async () => {
      if (runner.exitCode !== null) throw new Error(`runner exited early: ${stderr}`);
      return existsSync(events) && (await readFile(events, 'utf8')).includes('"trial-started"');
    }, 15_000);
    runner.kill('SIGKILL');
    await new Promise((resolve) => runner.once('exit', resolve));

    // The crash left both hosts' folders and keeper processes, and no teardown line.
    const leftovers = await labResources(runDir);
    expect(leftovers.map((r) => r.type).sort()).toEqual(['dir', 'dir', 'process', 'process']);
    expect(leftovers.every(exists)).toBe(true);
    expect((await readLedger(join(runDir, 'ledger.jsonl'))).some((e) => e.phase === 'deleted')).toBe(false);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(true);

    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { cleanupRun, createRegistry } from '${distUrl('index.js')}';
      const { plugins, runsDir, runId } = JSON.parse(process.env.NB_ARGS);
      const outcome = await cleanupRun(runId, { registry: createRegistry({ searchDirs: [plugins] }), runsDir });
      process.stdout.write(JSON.stringify(outcome));
    `,
      ],
      { env: { ...process.env, NB_ARGS: args } },
    );
    const outcome = JSON.parse(stdout) as { deleted: { type: string }[]; failed: unknown[] };
    expect(outcome.failed).toEqual([]);
    expect(outcome.deleted.map((r) => r.type)).toEqual(['process', 'dir', 'process', 'dir']);
    for (const resource of leftovers) expect(exists(resource)).toBe(false);
    const ledger = await readLedger(join(runDir, 'ledger.jsonl'));
    expect(ledger.filter((e) => e.phase === 'deleted')).toHaveLength(4);

    // A second cleanup has nothing left to do.
    expect(await cleanupRun(runDir, { registry: staticRegistry([labCloud] as AnyPlugin[]) })).toEqual({ deleted: [], failed: [] });
  });

  it('refuses a run whose process is still alive unless forced', async () => {
    const runDir = join(runsDir, newRunId());
    await mkdir(runDir, { recursive: true });
    const alive = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await writeFile(join(runDir, 'run.lock'), JSON.stringify({ pid: alive.pid, hostname: hostname() }));
      const registry = staticRegistry([labCloud] as AnyPlugin[]);
      await expect(cleanupRun(runDir, { registry })).rejects.toThrow(`is still in progress (pid ${alive.pid})`);
      expect(await cleanupRun(runDir, { registry, force: true })).toEqual({ deleted: [], failed: [] });
    } finally {
      alive.kill('SIGKILL');
    }
  });

  it('holds the run lock while it deletes, and leaves none after', async () => {
    const runDir = join(runsDir, newRunId());
    await mkdir(runDir, { recursive: true });
    let lockedDuring: unknown;
    const watching = definePlugin({
      ...labCloud,
      async teardown(resource, ctx) {
        lockedDuring = JSON.parse(await readFile(join(runDir, 'run.lock'), 'utf8'));
        return labCloud.teardown(resource, ctx);
      },
    });
    const ledger = await LedgerFile.open(join(runDir, 'ledger.jsonl'), basename(runDir));
    const dir = join(root, `${basename(runDir)}-x`);
    await mkdir(dir);
    await ledger.forPlugin('lab').track({ type: 'dir', id: dir, host: 'a', data: {} }, async () => {});
    await ledger.close();
    expect((await cleanupRun(runDir, { registry: staticRegistry([watching] as AnyPlugin[]) })).deleted).toHaveLength(1);
    expect(lockedDuring).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
  });

  it('names a run folder that does not exist', async () => {
    await expect(cleanupRun('20200101-000000-aaaaaa', { registry: staticRegistry([]), runsDir })).rejects.toThrow(`no run folder ${join(runsDir, '20200101-000000-aaaaaa')}`);
  });
});

describe('cleanupAll', () => {
  /** A run that provisioned and then vanished without teardown (its ledger is all that is left). */
  async function crashedRun(runId: string): Promise<string> {
    const runDir = join(runsDir, runId);
    await mkdir(runDir, { recursive: true });
    const ledger = await LedgerFile.open(join(runDir, 'ledger.jsonl'), runId);
    const config: LabHostConfig = { root, failProvision: false, failTeardown: false, toolMissing: false };
    await labCloud.provision([{ id: 'a', name: 'a', cloud: 'lab', config }], {
      runId,
      runDir,
      signal: new AbortController().signal,
      log: { debug() {}, info() {}, warn() {} },
      ledger: ledger.forPlugin('lab'),
      connectSsh: (o) => connectSshHost(o),
    });
    await ledger.close();
    return runDir;
  }

  it('replays the ledgers of unfinished runs and asks each cloud for leftovers by name', async () => {
    const oldRun = await crashedRun(newRunId(new Date(Date.now() - 2 * 3600_000)));
    const newRun = await crashedRun(newRunId());
    const filters: CleanupFilter[] = [];
    const labWithCleanup = definePlugin({
      ...labCloud,
      async cleanup(filter: CleanupFilter) {
        filters.push(filter);
        return {
          found: [
            { type: 'bucket', id: 'nb-old' },
            { type: 'bucket', id: 'nb-stuck' },
          ],
          failed: [{ resource: { type: 'bucket', id: 'nb-stuck' }, error: 'in use' }],
        };
      },
    });
    const registry = staticRegistry([labWithCleanup] as AnyPlugin[]);

    const dry = await cleanupAll({ registry, runsDir, machineLocksDir: root, dryRun: true, olderThanMs: 3600_000 });
    expect(dry.deleted.filter((r) => r.type !== 'bucket').map((r) => r.type)).toEqual(['process', 'dir']);
    expect((await labResources(oldRun)).every(exists)).toBe(true);
    expect(filters[0]).toEqual({ olderThanMs: 3600_000, dryRun: true, excludeRunIds: [] });

    const real = await cleanupAll({ registry, runsDir, machineLocksDir: root, olderThanMs: 3600_000 });
    expect(real.deleted.map((r) => `${r.type}:${r.type === 'bucket' ? r.id : ''}`)).toEqual(['process:', 'dir:', 'bucket:nb-old']);
    expect(real.failed).toEqual([{ resource: { type: 'bucket', id: 'nb-stuck' }, error: 'in use' }]);
    expect((await labResources(oldRun)).some(exists)).toBe(false);
    // The recent run is younger than the cutoff and left alone.
    expect((await labResources(newRun)).every(exists)).toBe(true);

    const rest = await cleanupAll({ registry, runsDir, machineLocksDir: root, cloud: 'lab' });
    expect(rest.deleted.filter((r) => r.type !== 'bucket')).toHaveLength(2);
    expect((await labResources(newRun)).some(exists)).toBe(false);
    expect((await cleanupAll({ registry: staticRegistry([labCloud] as AnyPlugin[]), runsDir, machineLocksDir: root })).deleted).toEqual([]);
  });

  it('spares a run alive in another runs folder (its machine copy of run.lock), reports its resources as in use, and cleans them once its process is dead', async () => {
    const otherRunsDir = join(root, 'other-runs');
    const liveId = newRunId();
    const liveDir = join(otherRunsDir, liveId);
    await mkdir(liveDir, { recursive: true });
    const alive = spawn('sleep', ['30'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => alive.once('exit', resolve));
    const startTime = (await processState(alive.pid!))!.startTime;
    // What the live run wrote: its folder's lock (elsewhere: not seen by this sweep) and the machine copy.
    const lock = JSON.stringify({ pid: alive.pid, startTime, hostname: hostname(), runId: liveId });
    await writeFile(join(liveDir, 'run.lock'), lock);
    await mkdir(join(root, `netbench-${liveId}`));
    await writeFile(join(root, `netbench-${liveId}`, 'run.lock'), lock);
    const filters: CleanupFilter[] = [];
    // A cloud that finds the live run's resource by name and honours the filter as local and docker do.
    const named = { type: 'bucket', id: `nb-${liveId}`, data: { runId: liveId } };
    const registry = staticRegistry([
      definePlugin({
        ...labCloud,
        async cleanup(filter: CleanupFilter) {
          filters.push(filter);
          return filter.excludeRunIds?.includes(liveId) ? { found: [], failed: [], spared: [named] } : { found: [named], failed: [] };
        },
      }),
    ] as AnyPlugin[]);
    try {
      const swept = await cleanupAll({ registry, runsDir, machineLocksDir: root });
      expect(filters[0]?.excludeRunIds).toEqual([liveId]);
      expect(swept.deleted).toEqual([]);
      expect(swept.spared).toEqual([{ resource: named, reason: `in use by live run ${liveId} (pid ${alive.pid})` }]);
    } finally {
      alive.kill('SIGKILL');
      await exited;
    }
    // The same run once its process is dead: a leftover like any other.
    const swept = await cleanupAll({ registry, runsDir, machineLocksDir: root });
    expect(filters[1]?.excludeRunIds).toEqual([]);
    expect(swept.deleted).toEqual([named]);
    expect(swept.spared).toEqual([]);
  });

  it('a run folder here whose process is alive: its pending resources are reported as in use, not replayed', async () => {
    const runDir = await crashedRun(newRunId(new Date(Date.now() - 2 * 3600_000)));
    const alive = spawn('sleep', ['30'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => alive.once('exit', resolve));
    try {
      await writeFile(join(runDir, 'run.lock'), JSON.stringify({ pid: alive.pid, startTime: (await processState(alive.pid!))!.startTime, hostname: hostname() }));
      const swept = await cleanupAll({ registry: staticRegistry([labCloud] as AnyPlugin[]), runsDir, machineLocksDir: root });
      expect(swept.deleted).toEqual([]);
      expect(swept.spared?.map((s) => [s.resource.type, s.reason])).toEqual([
        ['process', `in use by live run ${basename(runDir)} (pid ${alive.pid})`],
        ['dir', `in use by live run ${basename(runDir)} (pid ${alive.pid})`],
      ]);
      expect((await labResources(runDir)).every(exists)).toBe(true);
    } finally {
      alive.kill('SIGKILL');
      await exited;
    }
  });
});

describe("cleanup --all and the machine's RAM directories", () => {
  it("sweeps tunnel ends where the machine locks are (a test's stand-in), never the real /dev/shm beside them", async () => {
    const runId = newRunId(new Date(Date.now() - 2 * 3600_000));
    const dir = join(root, `netbench-${runId}`, 'wg-a');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode passes through the umask; netbench's own ends are exactly 0700.
    for (const path of [join(root, `netbench-${runId}`), dir]) await chmod(path, 0o700);
    const resource = { type: 'tunnel-endpoint', id: 'wg-a', data: { dir, iface: 'nbw00000000a', kernelLink: false, runId, tunnel: 'wg', type: 'wireguard', sameMachine: true } };
    await writeFile(join(dir, 'ledger-entry.json'), JSON.stringify(resource), { mode: 0o600 });
    const swept = await cleanupAll({ registry: staticRegistry([labCloud] as AnyPlugin[]), runsDir, machineLocksDir: root, cloud: 'local' });
    expect(swept.failed).toEqual([]);
    expect(swept.deleted).toEqual([{ type: 'tunnel-endpoint', id: 'wg-a', data: { runId, dir } }]);
    expect(existsSync(join(root, `netbench-${runId}`))).toBe(false);
  });
});
