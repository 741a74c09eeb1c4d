import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli, cliBin, line, median, repoRoot, tempDir } from './lib.mjs';

// Reports the CLI process's own CPU time on exit: on a busy machine wall time
// mostly measures the other processes; CPU time measures start-up work.
const CPU_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\n@cpu '+(u.user+u.system)/1000+'\\n')})`;

/** One CLI run: wall and CPU milliseconds. */
function timed(args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--import', CPU_HOOK, cliBin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`netbench ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { wall, cpu: Number(/@cpu ([\d.]+)/.exec(result.stderr)?.[1] ?? NaN) };
}

const PLUGINS = 20;

/**
 * $NETBENCH_HOME/plugins as `netbench plugins add` leaves it, with `count`
 * third-party plugins: half declare themselves in package.json, half are
 * `netbench-plugin-*` packages recorded in the folder's index. Each module
 * throws when imported, so a start-up that imported one would fail.
 */
function homeWith(count) {
  const home = tempDir('netbench-bench-plugins-');
  const dir = join(home, 'plugins');
  mkdirSync(join(dir, 'node_modules', '@netbench'), { recursive: true });
  symlinkSync(join(repoRoot, 'packages/core'), join(dir, 'node_modules/@netbench/core'));
  const dependencies = { '@netbench/core': `file:${join(repoRoot, 'packages/core')}` };
  const index = {};
  for (let i = 0; i < count; i++) {
    const name = `netbench-plugin-bench${i}`;
    const kind = ['tool', 'publisher', 'cloud'][i % 3];
    const pkg = join(dir, 'node_modules', name);
    mkdirSync(pkg, { recursive: true });
    const declared = i % 2 === 0;
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name,
        version: '1.0.0',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@netbench/core': '^0.1.0' },
        ...(declared ? { netbench: { kind, name: `bench${i}` } } : {}),
      }),
    );
    writeFileSync(join(pkg, 'index.js'), `throw new Error('${name} was imported at start-up');\n`);
    if (!declared) index[name] = { kind, name: `bench${i}` };
    dependencies[name] = `file:tarballs/${name}-1.0.0.tgz`;
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'netbench-user-plugins', private: true, dependencies, netbench: { plugins: index } }, null, 2));
  return home;
}

/** CLI start-up with no third-party plugin vs 20: `--version`, `plugins list` and `plan` (which discovers plugins). */
export default async function plugins() {
  const none = homeWith(0);
  const twenty = homeWith(PLUGINS);
  const spec = join(tempDir('netbench-bench-plugins-spec-'), 'spec.yaml');
  writeFileSync(spec, 'name: tiny\nhosts:\n  a: { cloud: local }\n  b: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: a, server: b, count: 5 }\n');
  const listed = JSON.parse(cli(['plugins', 'list', '--json'], { NETBENCH_HOME: twenty }).stdout).plugins.filter((p) => p.source === 'user').length;
  if (listed !== PLUGINS) throw new Error(`expected ${PLUGINS} user plugins, found ${listed}`);

  // What the plugins add to start-up: discovery (reading package.json files), timed in this process.
  const { createRegistry } = await import(pathToFileURL(join(repoRoot, 'packages/core/dist/index.js')).href);
  const discovery = (home) =>
    median(
      Array.from({ length: 50 }, () => {
        const started = process.cpuUsage();
        createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')], userPlugins: join(home, 'plugins') }).list();
        const used = process.cpuUsage(started);
        return (used.user + used.system) / 1000;
      }),
    );
  discovery(none);
  discovery(twenty); // warm the file cache and the JIT for both
  const [da, db] = [discovery(none), discovery(twenty)];
  line('plugin discovery (cpu), no third-party plugins, median of 50', `${da.toFixed(2)} ms`);
  line(`plugin discovery (cpu), ${PLUGINS} plugins, median of 50`, `${db.toFixed(2)} ms`);

  for (const [label, args, runs] of [
    ['netbench --version', ['--version'], 21],
    ['netbench plan (1 trial) --json', ['plan', spec, '--json'], 21],
  ]) {
    timed(args, { NETBENCH_HOME: none });
    // Interleaved, so drift on a shared machine hits both sides alike.
    const a = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      a.push(timed(args, { NETBENCH_HOME: none }));
      b.push(timed(args, { NETBENCH_HOME: twenty }));
    }
    for (const what of ['wall', 'cpu']) {
      const [ma, mb] = [median(a.map((r) => r[what])), median(b.map((r) => r[what]))];
      line(`${label}, ${what}, no plugins, median of ${runs}`, `${ma.toFixed(0)} ms`);
      line(`${label}, ${what}, ${PLUGINS} plugins, median of ${runs}`, `${mb.toFixed(0)} ms`, '≤ +10 %');
      line(`  difference (${what})`, `${(((mb - ma) / ma) * 100).toFixed(1)} %`);
    }
  }
}
