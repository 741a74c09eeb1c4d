import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from './helpers/cli.js';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, type Results, readEvents, readResults } from './helpers/results.js';
import { removeRunHomes, runHome, type SshLab, startSshLab } from './helpers/ssh-lab.js';

// What the overhead work changed, checked for safety over real SSH:
// iperf servers reused across trials and still stopped, the ledger still
// written before anything is created, host keys still verified, one
// connection per host, and `run` loading only what it uses.
describe('overhead paths over SSH: shared servers, ledger first, host keys, lazy loading', () => {
  let lab: SshLab;
  let result: CliResult;
  let runDir: string;
  let results: Results;
  let modules: string[];

  beforeAll(async () => {
    lab = await startSshLab({ controller: {}, a: { sshd: true }, b: { sshd: true } });
    const { home, runsDir } = runHome();
    const moduleLog = join(home, 'modules.txt');
    result = await lab.cli(['run', 'tests/scenarios/ssh/overhead/spec.yaml', '--runs-dir', runsDir, '--progress', 'none', ...lab.sets('client', 'a'), ...lab.sets('server', 'b')], {
      env: { NETBENCH_HOME: home, SSH_AUTH_SOCK: '', NODE_OPTIONS: `--import=${join(repoRoot, 'tests/helpers/module-log.mjs')}`, NETBENCH_MODULE_LOG: moduleLog },
    });
    runDir = onlyRunDir(runsDir);
    results = readResults(runDir);
    modules = readFileSync(moduleLog, 'utf8').split('\n');
  });

  afterAll(async () => {
    removeRunHomes();
    expect(await lab?.teardown()).toEqual([]);
  });

  it('succeeds with every trial', () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(results.run.trials.map((t) => `${t.tool}:${t.status}`).sort()).toEqual([
      'iperf:succeeded',
      'iperf:succeeded',
      'iperf:succeeded',
      'netperf:succeeded',
      'ping:succeeded',
      'ping:succeeded',
    ]);
  });

  it('reuses one iperf server per host: the two trials against the same host hit the same port', () => {
    const portOf = (trialId: string) => {
      const raw = readdirSync(join(runDir, 'raw')).find((f) => f.startsWith(trialId) && f.includes('iperf-server'));
      expect(raw, `server raw output of ${trialId}`).toBeDefined();
      return /port (\d+) connected with/.exec(readFileSync(join(runDir, 'raw', raw!), 'utf8'))?.[1];
    };
    const iperf = results.run.trials.filter((t) => t.tool === 'iperf');
    const onB = iperf.filter((t) => t.server === 'server').map((t) => portOf(t.id));
    const onA = iperf.filter((t) => t.server === 'client').map((t) => portOf(t.id));
    expect(onB).toHaveLength(2);
    expect(onB[0]).toMatch(/^\d+$/);
    expect(onB[1]).toBe(onB[0]);
    expect(onA).toHaveLength(1);
  });

  it('stopped every server it started (nothing but sshd left on either host)', () => {
    expect(lab.strayProcesses('a')).toEqual([]);
    expect(lab.strayProcesses('b')).toEqual([]);
  });

  it('wrote the ledger intent of each connection before the host was ready', () => {
    const ledger = readFileSync(join(runDir, 'ledger.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { time: string; phase: string; resource: { host?: string } });
    const ready = readEvents(runDir).filter((e) => e.type === 'host-ready');
    expect(ready).toHaveLength(2);
    for (const event of ready) {
      const intent = ledger.find((e) => e.phase === 'intent' && e.resource.host === (event as { host: string }).host);
      expect(intent, `ledger intent for ${(event as { host: string }).host}`).toBeDefined();
      expect(new Date(intent!.time).getTime()).toBeLessThanOrEqual(event.time);
    }
  });

  it('verified host keys and used one SSH connection per host', () => {
    for (const id of ['client', 'server']) expect(results.run.hosts.find((h) => h.id === id)?.labels).toMatchObject({ host_key_verification: 'known-hosts' });
    expect([lab.acceptedLogins('a'), lab.acceptedLogins('b')]).toEqual([1, 1]);
  });

  it('loaded only what run uses: no oclif, no CEL without filters, no PKB translator, plugin admin, statistics, charts or import', () => {
    // `run` skips oclif (fast-run.ts) and runs its own code from the run bundle (scripts/bundle-run.mjs): one classic
    // script loaded through `vm` (src/run-bundle.ts), so it is no ES module of the log; the compiled engine is not loaded.
    expect(modules.filter((m) => m.includes('/@oclif/core/'))).toEqual([]);
    // The spec has no matrix filter: the CEL library and RE2 are never loaded, and RE2 is not in the bundle either.
    expect(modules.filter((m) => m.includes('/@marcbachmann/cel-js/') || m.includes('/re2js/'))).toEqual([]);
    const bundle = readFileSync(join(repoRoot, 'packages/cli/dist/bundle/run.cjs'), 'utf8');
    expect(bundle).not.toMatch(/node_modules\/re2js\//);
    expect(
      modules.filter((m) => m.endsWith('/cli/dist/fast-run.js') || m.includes('/cli/dist/bundle/run')),
      'run code outside the script',
    ).toEqual([]);
    expect(
      modules.filter((m) => /\/(core|results|report)\/dist\//.test(m)),
      'engine modules outside the bundle',
    ).toEqual([]);
    // zod and plugin-api are in the bundle too, and the plugins got those copies (src/shared-modules.ts), not their own.
    expect(
      modules.filter((m) => /\/plugin-api\/dist\/|\/node_modules\/zod\//.test(m)),
      'zod or plugin-api loaded outside the bundle',
    ).toEqual([]);
    // Each plugin came from its one-file bundle (package.json netbench.bundle, scripts/bundle-plugins.mjs), not its dozens of modules.
    const pluginModules = modules.filter((m) => /\/plugins\/[a-z0-9]+\/dist\//.test(m)).map((m) => m.slice(m.indexOf('/plugins/') + '/plugins/'.length));
    expect(pluginModules, 'the netperf plugin ran').toContain('netperf/dist/index.bundle.js');
    expect(
      pluginModules.filter((m) => !/^[a-z0-9]+\/dist\/index\.bundle(-[\w-]+)?\.js$/.test(m)),
      'plugin modules loaded outside their bundles',
    ).toEqual([]);
    // The built-in plugins take zod from plugin-api (`z`), so they load the engine's plugin-api; shared-zod.js serves a plugin that imports zod itself.
    expect(modules.some((m) => m.endsWith('/cli/dist/bundle/shared-plugin-api.js'))).toBe(true);
    // zod's translations are not in the bundle (only English, which zod sets up at load) and no run loads one.
    expect(
      modules.filter((m) => m.includes('/zod/v4/locales/')),
      'zod translations loaded',
    ).toEqual([]);
    // What went into the script (the bundler names each module in a comment). The PKB translator is inside,
    // behind a lazy initializer that only a PKB config runs: a file of its own would miss the after-run cache.
    // A module counts as inside when its part of the script declares something: the bundler leaves a
    // module whose code was all shaken out as its name and the initializers it calls.
    const parts = bundle.split(/^\/\/ (\S+\.js)$/m);
    const inside = parts.flatMap((part, i) => (i % 2 === 1 && /^(?:export )?(?:async )?(?:function\*? |class |const |let |var )/m.test(parts[i + 1] ?? '') ? [`// ${part}`] : []));
    expect(inside.some((m) => m.endsWith('/core/dist/engine/run-plan.js'))).toBe(true);
    expect(inside.some((m) => m.endsWith('/results/dist/store/run-store.js'))).toBe(true);
    for (const unused of [
      '/core/dist/plugins-admin/',
      '/core/dist/doctor/',
      '/core/dist/cleanup/',
      '/results/dist/charts/',
      '/results/dist/import/',
      '/results/dist/stats/compare.js',
    ]) {
      // The store's run headlines use one leaf of charts (metric-roles.js: which metric heads a run, no other imports).
      expect(
        inside.filter((m) => m.includes(unused) && !m.endsWith('/results/dist/charts/metric-roles.js')),
        unused,
      ).toEqual([]);
    }
  });
});

describe('a local lab run: what it loads', () => {
  it('loads no node:crypto (run id from /dev/urandom, plan fingerprint hashed in JavaScript) and no zod translation', async () => {
    const home = tempHome();
    try {
      const spec = join(home, 'local.yaml');
      writeFileSync(
        spec,
        ['name: loads', 'hosts: { a: { cloud: local }, b: { cloud: local } }', 'benchmarks:', '  - { tool: ping, client: a, server: b, count: 2, interval: 0.2 }'].join('\n'),
      );
      const log = join(home, 'modules.txt');
      const result = await runCli(['run', spec, '--progress', 'none'], {
        env: { NETBENCH_HOME: home, NODE_OPTIONS: `--import=${join(repoRoot, 'tests/helpers/module-log.mjs')}`, NETBENCH_MODULE_LOG: log },
      });
      expect(result.code, result.stderr).toBe(0);
      const loaded = readFileSync(log, 'utf8').split('\n');
      // The log sees built-ins: the run spawned processes, so child_process is there.
      expect(loaded).toContain('builtin:child_process');
      expect(loaded.filter((m) => m === 'builtin:crypto' || m.startsWith('builtin:internal/crypto/'))).toEqual([]);
      expect(loaded.filter((m) => m.includes('/zod/v4/locales/'))).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("zod's translations, from the bundle", () => {
  it('are not in the bundle, yet a plugin that asks the shared zod for one gets it on first use', () => {
    const chunks = readdirSync(join(repoRoot, 'packages/cli/dist/bundle')).filter((f) => /\.c?js$/.test(f));
    const bundled = chunks.flatMap((chunk) => readFileSync(join(repoRoot, 'packages/cli/dist/bundle', chunk), 'utf8').match(/^\/\/ \S*zod\/v4\/locales\/\S+/gm) ?? []);
    expect(bundled.map((m) => m.slice(m.lastIndexOf('/') + 1))).toEqual(['en.js']);
    const script = [
      // As bin/run.js does: the run bundle first (its shared modules re-export what it holds).
      `const { loadRunBundle } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/cli/dist/run-bundle.js')).href)});`,
      `loadRunBundle(new URL(${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/cli/dist/bundle/run.cjs')).href)}), { cacheDir: undefined });`,
      `const { z, locales } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'packages/cli/dist/bundle/shared-zod.js')).href)});`,
      'const english = z.string().safeParse(1).error.issues[0].message;',
      'const german = z.string().safeParse(1, { error: locales.de().localeError }).error.issues[0].message;',
      'const japanese = z.number().safeParse("x", { error: z.locales.ja().localeError }).error.issues[0].message;',
      'console.log(JSON.stringify({ english, german, japanese, count: Object.keys(locales).length }));',
    ].join('\n');
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    const got = JSON.parse(out.stdout) as { english: string; german: string; japanese: string; count: number };
    expect(got.english).toBe('Invalid input: expected string, received number');
    expect(got.german).toMatch(/^Ungültige Eingabe: erwartet string/);
    expect(got.japanese).toMatch(/無効な入力/);
    // Every language zod has, as zod's own index lists them.
    expect(got.count).toBe((readFileSync(join(repoRoot, 'node_modules/zod/v4/locales/index.js'), 'utf8').match(/^export /gm) ?? []).length);
  });
});

describe('a matrix filter with `matches`, run from the bundle', () => {
  it('loads RE2 on first use: a pattern RE2 refuses is a spec error naming it, a valid one filters the cells', async () => {
    const home = tempHome();
    try {
      const spec = (filter: string) =>
        [
          'name: re2-from-bundle',
          'hosts: { a: { cloud: local }, b: { cloud: local } }',
          `matrix: { axes: { zone: [east-1, west-1] }, filter: ${JSON.stringify(filter)} }`,
          'benchmarks:',
          '  - { tool: ping, client: a, server: b, count: 1 }',
        ].join('\n');
      const write = (name: string, filter: string) => {
        writeFileSync(join(home, name), spec(filter));
        return join(home, name);
      };
      const refused = await runCli(['run', write('refused.yaml', 'zone.matches("a(?=b)")'), '--progress', 'none'], { env: { NETBENCH_HOME: home } });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/invalid regular expression "a\(\?=b\)" \(CEL uses RE2 syntax/);
      // Every cell filtered out by a pattern RE2 accepts: refused before anything is made, for that reason.
      const none = await runCli(['run', write('none.yaml', 'zone.matches("^north")'), '--progress', 'none'], { env: { NETBENCH_HOME: home } });
      expect(none.code, none.stderr).toBe(2);
      expect(none.stderr).toMatch(/matrix\.filter {2}the filter drops every one of the 2 matrix cells/);
      expect(none.stderr).not.toMatch(/invalid regular expression/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
