import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { declaration, readPackageJson, type UndeclaredPackage } from './discover-plugins.js';
import { packageEntry } from './package-entry.js';
import type { PluginDescriptor } from './types.js';

/** A package that could not be probed, with the reason. */
export interface ProbeProblem {
  readonly packageName: string;
  readonly version: string;
  readonly dir: string;
  readonly error: string;
}

export interface ProbeResult {
  readonly plugins: PluginDescriptor[];
  readonly problems: ProbeProblem[];
}

// Runs in a separate Node process: imports each entry and prints what its default export says it is.
const PROBE_SCRIPT = `
const brand = Symbol.for('netbench.plugin');
const out = [];
for (const url of process.argv.slice(1)) {
  try {
    const plugin = (await import(url)).default;
    out.push(plugin && plugin[brand] === true ? { kind: plugin.kind, name: plugin.name } : { error: 'its default export is not a netbench plugin (made with definePlugin)' });
  } catch (error) {
    out.push({ error: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * Learn kind and name of `netbench-plugin-*` packages that do not declare
 * them, by importing them in a child process (synchronously, so discovery
 * stays synchronous; in a child, so a plugin's side effects and failures stay
 * out of this process). Only undeclared packages pay this; declared ones are
 * never imported before a spec needs them.
 */
export function probePlugins(packages: readonly UndeclaredPackage[]): ProbeResult {
  const plugins: PluginDescriptor[] = [];
  const problems: ProbeProblem[] = [];
  const entries: { pkg: UndeclaredPackage; url: string }[] = [];
  for (const pkg of packages) {
    const manifest = readPackageJson(pkg.dir);
    const entry = manifest && packageEntry(pkg.dir, manifest);
    if (entry) entries.push({ pkg, url: pathToFileURL(entry).href });
    else problems.push({ packageName: pkg.packageName, version: pkg.version, dir: pkg.dir, error: 'no entry point in package.json ("exports" or "main")' });
  }
  if (entries.length === 0) return { plugins, problems };
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE_SCRIPT, ...entries.map((e) => e.url)], {
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let answers: unknown[] = [];
  try {
    answers = JSON.parse(child.stdout) as unknown[];
  } catch {
    const why = child.error?.message ?? (child.stderr.trim() || `probe exited with ${String(child.status)}`);
    for (const { pkg } of entries) problems.push({ packageName: pkg.packageName, version: pkg.version, dir: pkg.dir, error: why });
    return { plugins, problems };
  }
  entries.forEach(({ pkg }, i) => {
    const answer = answers[i] as { error?: string } | undefined;
    const declared = declaration(answer);
    if (declared)
      plugins.push({
        ...declared,
        packageName: pkg.packageName,
        version: pkg.version,
        dir: pkg.dir,
        builtin: false,
        ...(pkg.origin ? { origin: pkg.origin } : {}),
        ...(pkg.declaredBy ? { declaredBy: pkg.declaredBy } : {}),
      });
    else problems.push({ packageName: pkg.packageName, version: pkg.version, dir: pkg.dir, error: answer?.error ?? 'no answer from the probe' });
  });
  return { plugins, problems };
}
