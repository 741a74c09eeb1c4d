// The plugin SDK end to end, through the built CLI: a third-party plugin
// packed and added, run on the local lab; broken plugins that never take
// teardown or other publishers down; scaffolds that pass their own tests.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NetbenchEvent, Sample } from '@netbench/plugin-api';
import { intervalSweepCharts } from '@netbench/results';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { namespacesIn, namespacesOf } from './helpers/leftovers.js';
import { onlyRunDir, readEvents, readResults } from './helpers/results.js';
import { openSandbox } from './helpers/sandbox.js';

const exec = promisify(execFile);
const scenarios = join(repoRoot, 'tests/scenarios/plugins');
const example = join(repoRoot, 'examples/plugins/netbench-plugin-sockperf');
// npm from PATH, run by the Node that runs the tests (first on PATH under scripts/node24).
const npm = (args: string[], cwd: string) => exec('npm', args, { cwd, maxBuffer: 1 << 26, timeout: 240_000 });

describe('a third-party tool plugin (sockperf): pack, plugins add, run on the local lab', () => {
  let home: string;
  let project: string;

  beforeAll(async () => {
    home = tempHome('netbench-e2e-plugins-');
    project = join(home, 'project');
    mkdirSync(project);
    // Built as its own package with its own tsconfig, packed like any npm package.
    await exec(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', example]);
    await npm(['pack', '--silent', '--pack-destination', project], example);
  }, 120_000);

  it("is added from its tarball into $NETBENCH_HOME/plugins, resolving the CLI's own SDK", async () => {
    const tarball = readdirSync(project).find((f) => /^netbench-plugin-sockperf-.*\.tgz$/.test(f))!;
    const added = await runCli(['plugins', 'add', `./${tarball}`, '--json'], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ kind: 'tool', name: 'sockperf', packageName: 'netbench-plugin-sockperf', version: '0.1.0', apiVersion: 1 });
    // The peer @netbench/plugin-api is a link to the CLI's own, not a copy fetched from a registry.
    const api = join(home, 'plugins/node_modules/@netbench/plugin-api');
    expect(lstatSync(api).isSymbolicLink()).toBe(true);
    expect(realpathSync(api)).toBe(join(repoRoot, 'packages/plugin-api'));
    expect(existsSync(join(home, 'plugins/node_modules/@netbench/core'))).toBe(false);

    const list = await runCli(['plugins', 'list', '--json'], { cwd: project, env: { NETBENCH_HOME: home } });
    const plugins = (JSON.parse(list.stdout) as { plugins: { name: string; source: string; kind: string }[] }).plugins;
    expect(plugins.find((p) => p.name === 'sockperf')).toMatchObject({ kind: 'tool', source: 'user' });
    expect(plugins.find((p) => p.name === 'ping')).toMatchObject({ kind: 'tool', source: 'built-in' });

    const info = await runCli(['plugins', 'info', 'sockperf'], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/^tool sockperf — sockperf ping-pong and under-load/);
    expect(info.stdout).toMatch(/mode\?\s+ping-pong \| under-load \| \(ping-pong \| under-load\)\[\]\s+"ping-pong"/);
  });

  it('runs ping-pong and under-load over UDP and TCP between namespaces, p25 to p99.999 with histograms, and leaves nothing behind', async () => {
    const runs = join(home, 'runs');
    const result = await runCli(['run', join(scenarios, 'sockperf.yaml'), '--runs-dir', runs, '--progress', 'plain'], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const runDir = onlyRunDir(runs);
    const { run, samples } = readResults(runDir);
    expect(run.trials.map((t) => `${t.test}/${String(t.params['protocol'])}:${t.status}`)).toEqual([
      'ping-pong/udp:succeeded',
      'ping-pong/tcp:succeeded',
      'under-load/udp:succeeded',
      'under-load/tcp:succeeded',
    ]);
    for (const trial of run.trials) {
      const mine = samples.filter((s) => s.trialId === trial.id);
      const metrics = mine.map((s) => s.metric);
      for (const p of ['25', '50', '75', '90', '99', '99.9', '99.99', '99.999']) expect(metrics).toContain(`latency_p${p}`);
      const value = (m: string) => mine.find((s) => s.metric === m)!.value;
      expect(value('latency_p25')).toBeGreaterThan(0);
      expect(value('latency_p25')).toBeLessThanOrEqual(value('latency_p50'));
      expect(value('latency_p50')).toBeLessThanOrEqual(value('latency_p99.999'));
      const p50 = mine.find((s) => s.metric === 'latency_p50')! as Sample;
      expect(p50.histogram?.count).toBe(value('observations'));
      expect(p50.labels).toMatchObject({ tool: 'sockperf', sockperf_version: '3.7', mode: trial.test, client_cloud: 'local' });
    }
    expect(existsSync(join(runDir, 'results.pkb.jsonl'))).toBe(true);
    // The headline metrics the plugin declared travel with the run (charts, report and compare read them there).
    expect(run.metrics?.['latency_p50']).toEqual({ role: 'latency', better: 'lower', primary: true });
    // Raw outputs named by the one rule: raw/<trial>-<name the plugin gave>.
    expect(run.trials[0]!.rawFiles).toContain(`raw/${run.trials[0]!.id}-sockperf.txt`);
    expect(namespacesOf(run.runId)).toEqual([]);
  });

  it('sweeps sockperf --mps into the latency-by-probe-interval chart, next to ping -i', async () => {
    const runs = join(home, 'runs-sweep');
    const result = await runCli(['run', join(scenarios, 'sockperf-sweep.yaml'), '--runs-dir', runs, '--progress', 'none'], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    const results = readResults(onlyRunDir(runs));
    expect(results.run.trials.filter((t) => t.tool === 'sockperf').map((t) => t.params['mps'])).toEqual([100, 1000, 10_000]);
    const [chart] = intervalSweepCharts([results]);
    expect(chart!.series.map((s) => s.name)).toEqual(['sockperf p50', 'sockperf p90', 'sockperf p99', 'ping p50', 'ping p90', 'ping p99']);
    // A message every 1 / mps seconds; each point holds every round trip sockperf timed at that rate.
    const sockperf = chart!.series[0]!.points;
    expect(sockperf.map((p) => p.x)).toEqual([0.0001, 0.001, 0.01]);
    expect(sockperf.every((p) => p.mean > 0 && p.n >= 50)).toBe(true);
    expect(chart!.series[3]!.points.map((p) => p.x)).toEqual([0.001, 0.01, 0.1]);
  });

  it('is removed again; a spec naming it is then refused', async () => {
    const removed = await runCli(['plugins', 'remove', 'sockperf'], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/removed tool sockperf \(netbench-plugin-sockperf@0\.1\.0\)/);
    const run = await runCli(['run', join(scenarios, 'sockperf.yaml'), '--runs-dir', join(home, 'runs2')], { cwd: project, env: { NETBENCH_HOME: home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown tool 'sockperf'.*netbench plugins add netbench-plugin-sockperf/);
  });
});

describe('broken plugins never take teardown or other publishers down', () => {
  let home: string;

  beforeAll(() => {
    home = tempHome('netbench-e2e-broken-');
    const modules = join(home, 'plugins/node_modules');
    mkdirSync(join(modules, '@netbench'), { recursive: true });
    // As `plugins add` leaves it: the CLI's SDK linked beside the plugins.
    symlinkSync(join(repoRoot, 'packages/plugin-api'), join(modules, '@netbench/plugin-api'));
    const dependencies: Record<string, string> = {};
    for (const name of readdirSync(join(scenarios, 'packages'))) {
      cpSync(join(scenarios, 'packages', name), join(modules, name), { recursive: true });
      dependencies[(JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { name: string }).name] = '*';
    }
    // Installed packages are loaded only when the folder's package.json declares them, as `plugins add` leaves it.
    writeFileSync(join(home, 'plugins/package.json'), JSON.stringify({ name: 'netbench-user-plugins', private: true, dependencies }));
  });

  it('a tool that throws fails its trial only, a publisher that throws is named with its cause; ping, teardown and json go on', async () => {
    // badload is installed beside them and throws when imported: this run succeeds only because loading is lazy.
    const runs = join(home, 'runs');
    const result = await runCli(['run', join(scenarios, 'broken-plugins.yaml'), '--runs-dir', runs, '--progress', 'plain'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(3); // some trials failed
    const runDir = onlyRunDir(runs);
    const { run, samples } = readResults(runDir);
    expect(run.trials.map((t) => `${t.tool}:${t.status}`)).toEqual(['ping:succeeded', 'crashtool:failed']);
    expect(run.trials[1]!.error).toMatch(/\[plugin crashtool\] run: crashtool: exploded mid-trial/);
    expect(samples.some((s) => s.labels.tool === 'ping' && s.metric === 'Latency p50')).toBe(true);
    const events = readEvents(runDir) as NetbenchEvent[];
    const publishError = events.find((e) => e.type === 'error' && e.plugin === 'explode');
    expect(publishError && publishError.type === 'error' && publishError.message).toBe('[plugin explode] publish: explode: backend down');
    expect(events.some((e) => e.type === 'published' && e.publisher === 'json')).toBe(true);
    expect(readFileSync(join(runDir, 'results.pkb.jsonl'), 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'phase-finished' && e.phase === 'teardown' && e.ok)).toBe(true);
    expect(namespacesOf(run.runId)).toEqual([]);
  });

  it('a plugin that fails to load is named, with its own message, before anything is made', async () => {
    // Inside a sandbox of its own: every namespace in it would be this run's.
    const sandbox = await openSandbox();
    let result: Awaited<ReturnType<typeof runCli>>;
    let made: string[];
    try {
      result = await runCli(['run', join(scenarios, 'broken-load.yaml'), '--runs-dir', join(home, 'runs-load')], { env: { NETBENCH_HOME: home }, wrapper: sandbox.wrapper });
      made = namespacesIn(sandbox);
    } finally {
      await sandbox.close();
    }
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('netbench-plugin-badload@0.0.1');
    expect(result.stderr).toContain('badload: cannot find its native module');
    expect(made).toEqual([]);
  });
});

describe('plugins new scaffolds packages that pass their own tests, with nothing but the installed netbench', () => {
  // One folder with all three scaffolds. They declare the same dependencies (checked), so one
  // `npm install` (in the tool's) serves all three: the other two link its node_modules.
  let dir: string;
  const pkgs = {} as Record<Kind, string>;
  beforeAll(async () => {
    dir = tempHome('netbench-e2e-new-');
    for (const kind of KINDS) pkgs[kind] = await scaffold(kind, dir);
    const deps = KINDS.map((kind) => dependenciesOf(pkgs[kind]));
    expect(deps[1]).toEqual(deps[0]);
    expect(deps[2]).toEqual(deps[0]);
    await npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], pkgs.tool);
    for (const kind of ['cloud', 'publisher'] as const) symlinkSync(join(pkgs.tool, 'node_modules'), join(pkgs[kind], 'node_modules'));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true })); // the node_modules weigh ~100 MB

  it.each(['cloud', 'publisher'] as const)(
    'a %s: scaffold, build, test',
    async (kind) => {
      await buildAndTest(pkgs[kind]);
    },
    300_000,
  );

  it('a tool: scaffold, npm install, build, test, pack, plugins add, and run on the lab', async () => {
    const pkg = pkgs.tool;
    await buildAndTest(pkg);
    // The SDK is all it pulls of netbench: no engine, store, statistics, charts or SSH code.
    const modules = join(pkg, 'node_modules');
    expect(lstatSync(modules).isSymbolicLink()).toBe(false);
    expect(realpathSync(join(modules, '@netbench/plugin-api'))).toBe(join(repoRoot, 'packages/plugin-api'));
    for (const absent of ['@netbench/core', '@netbench/results', '@netbench/report', 'ssh2', 'echarts', '@marcbachmann/cel-js']) {
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    }
    await npm(['pack', '--silent', '--pack-destination', dir], pkg);
    const tarball = readdirSync(dir).find((f) => /^netbench-plugin-my-tool-.*\.tgz$/.test(f))!;
    const added = await runCli(['plugins', 'add', join(dir, tarball)], { cwd: dir, env: { NETBENCH_HOME: dir } });
    expect(added.code, added.stderr).toBe(0);
    const spec = join(dir, 'spec.yaml');
    writeFileSync(
      spec,
      'name: scaffold\nhosts:\n  client: { cloud: local }\n  server: { cloud: local }\nbenchmarks:\n  - tool: my-tool\n    client: client\n    server: server\n    count: 5\n',
    );
    const runs = join(dir, 'runs');
    const run = await runCli(['run', spec, '--runs-dir', runs, '--progress', 'none'], { cwd: dir, env: { NETBENCH_HOME: dir } });
    expect(run.code, run.stderr).toBe(0);
    const { run: record, samples } = readResults(onlyRunDir(runs));
    expect(record.trials.map((t) => `${t.tool}:${t.status}`)).toEqual(['my-tool:succeeded']);
    expect(samples.find((s) => s.metric === 'packet_loss')?.value).toBe(0);
    expect(samples.find((s) => s.metric === 'latency_avg')?.value).toBeGreaterThan(0);
    expect(record.trials[0]!.rawFiles).toEqual([`raw/${record.trials[0]!.id}-ping.txt`]);
    expect(namespacesOf(record.runId)).toEqual([]);
  }, 420_000);
});

type Kind = 'tool' | 'cloud' | 'publisher';
const KINDS: readonly Kind[] = ['tool', 'cloud', 'publisher'];

/** `plugins new` with no options: the package folder it made. */
async function scaffold(kind: Kind, dir: string): Promise<string> {
  const made = await runCli(['plugins', 'new', '--kind', kind, `my-${kind}`, '--json'], { cwd: dir });
  expect(made.code, made.stderr).toBe(0);
  const pkg = join(dir, `netbench-plugin-my-${kind}`);
  expect(JSON.parse(made.stdout).dir).toBe(pkg);
  // Against the installed netbench's own SDK: only TypeScript and vitest come from the registry.
  expect(dependenciesOf(pkg).devDependencies['@netbench/plugin-api']).toBe(`file:${join(repoRoot, 'packages/plugin-api')}`);
  return pkg;
}

function dependenciesOf(pkg: string): { devDependencies: Record<string, string>; peerDependencies: Record<string, string> } {
  const { devDependencies, peerDependencies } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  return { devDependencies, peerDependencies };
}

/** What the scaffold's README says after npm install: npm test (build + conformance). */
async function buildAndTest(pkg: string): Promise<void> {
  const test = await npm(['test'], pkg);
  expect(test.stdout).toMatch(/Tests\s+.*\d+ passed/);
  expect(test.stdout).not.toMatch(/failed/);
  expect(existsSync(join(pkg, 'dist/index.js'))).toBe(true);
}
