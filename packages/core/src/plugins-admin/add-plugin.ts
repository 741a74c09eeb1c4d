import { existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { PluginKind } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { createRegistry } from '../registry/create-registry.js';
import { describePackage, PLUGIN_PACKAGE_RE, readPackageJson } from '../registry/discover-plugins.js';
import { loadPlugin } from '../registry/load-plugin.js';
import type { RootInput } from '../registry/plugin-roots.js';
import { probePlugins } from '../registry/probe-plugins.js';
import type { PluginDescriptor } from '../registry/types.js';
import { userPluginsDir } from '../registry/user-plugins-dir.js';
import { runNpm } from './npm-command.js';
import { pruneTarballs } from './tarballs.js';
import { ensureUserProject, readUserProject, writeUserProject } from './user-project.js';

export interface AddPluginOptions {
  /** What to install: an npm spec (`netbench-plugin-x@^1`), a folder, or a tarball (`./x-1.0.0.tgz`). */
  readonly spec: string;
  /** Relative paths are from here. Default: the working directory. */
  readonly cwd?: string;
  /** The user plugin folder. Default `$NETBENCH_HOME/plugins`. */
  readonly dir?: string;
  /** Where the CLI's own plugins are found (to refuse a name they already use). Default: beside this core. */
  readonly searchDirs?: readonly RootInput[];
}

export interface AddedPlugin {
  readonly kind: PluginKind;
  readonly name: string;
  readonly packageName: string;
  readonly version: string;
  /** Folder it was installed to. */
  readonly dir: string;
  readonly apiVersion: number;
  readonly description?: string;
}

const TARBALL_RE = /\.(?:tgz|tar\.gz|tar)$/;
// The SDK netbench links into the plugin folder (and the core older folders linked): never the plugin just added.
const SDK_PACKAGES = new Set(['@netbench/plugin-api', '@netbench/core']);

/**
 * `netbench plugins add`: install a package into the user plugin folder (an
 * npm project) with `npm install --prefix --ignore-scripts` (no install
 * script ever runs), then import it once to verify
 * it is a netbench plugin on a supported API version whose name is free.
 * Anything else is uninstalled again and explained (a `NetbenchError`
 * whose `cause` is the plugin's own error).
 */
export async function addPlugin(options: AddPluginOptions): Promise<AddedPlugin> {
  const dir = options.dir ?? userPluginsDir();
  const before = (await ensureUserProject(dir)).dependencies ?? {};
  const target = await installTarget(options.spec, options.cwd ?? process.cwd(), dir);
  // Never install scripts (preinstall, install, postinstall, of the package or its dependencies): they would run
  // as the user before anything is checked, and a netbench plugin is JavaScript that needs no build step here.
  const installed = await runNpm(['install', '--prefix', dir, '--save', '--ignore-scripts', '--no-audit', '--no-fund', target], { cwd: dir });
  if (installed.code !== 0) {
    throw new NetbenchError(`npm could not install ${options.spec}:\n${tail(installed.stderr || installed.stdout)}`);
  }
  const after = readUserProject(dir).dependencies ?? {};
  const packageName = installedName(before, after, target, options.spec);
  const packageDir = join(dir, 'node_modules', packageName);
  const version = String(readPackageJson(packageDir)?.version ?? '0.0.0');
  const refuse = async (reason: string, cause?: unknown): Promise<never> => {
    await runNpm(['uninstall', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', packageName], { cwd: dir });
    await pruneTarballs(dir);
    throw new NetbenchError(`${packageName}@${version} ${reason}; it was uninstalled`, cause === undefined ? undefined : { cause });
  };

  const descriptor = describePackage(packageDir) ?? (await undeclared(packageName, version, packageDir, refuse));
  let plugin;
  try {
    plugin = await loadPlugin(descriptor);
  } catch (error) {
    return refuse(`cannot be used: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  const clash = createRegistry({ ...(options.searchDirs ? { searchDirs: options.searchDirs } : {}), userPlugins: false })
    .list(descriptor.kind)
    .find((d) => d.name === descriptor.name);
  if (clash) return refuse(`is ${descriptor.kind} "${descriptor.name}", a name ${clash.packageName}@${clash.version} already has`);

  if (!describePackage(packageDir)) {
    // Remember what importing it told, so discovery needs no probe next time.
    const project = readUserProject(dir);
    project.netbench = { ...project.netbench, plugins: { ...project.netbench?.plugins, [packageName]: { kind: descriptor.kind, name: descriptor.name } } };
    await writeUserProject(dir, project);
  }
  await pruneTarballs(dir);
  return {
    kind: descriptor.kind,
    name: descriptor.name,
    packageName,
    version,
    dir: packageDir,
    apiVersion: plugin.apiVersion ?? 0,
    ...(plugin.description !== undefined ? { description: plugin.description } : {}),
  };
}

/** A `netbench-plugin-*` package that declares nothing: probe it; anything else is not a plugin. */
async function undeclared(packageName: string, version: string, dir: string, refuse: (reason: string) => Promise<never>): Promise<PluginDescriptor> {
  if (!PLUGIN_PACKAGE_RE.test(packageName)) {
    return refuse('is not a netbench plugin: its package.json has no "netbench": { "kind", "name" } and its name is not netbench-plugin-<name>');
  }
  const probed = probePlugins([{ packageName, version, dir }]);
  const found = probed.plugins[0];
  if (!found) return refuse(`cannot be used: ${probed.problems[0]?.error ?? 'it does not export a plugin'}`);
  return found;
}

/** npm's argument: an npm spec as given; a folder as an absolute path; a tarball copied into the plugin folder (it must outlive the download). */
async function installTarget(spec: string, cwd: string, dir: string): Promise<string> {
  const path = resolve(cwd, spec);
  const looksLocal = /^(?:\.{1,2}[\\/]|[\\/]|~)/.test(spec) || TARBALL_RE.test(spec) || existsSync(path);
  if (!looksLocal) return spec;
  if (!existsSync(path)) throw new NetbenchError(`${spec}: no such file or folder`);
  if (statSync(path).isDirectory()) return path;
  const kept = join(dir, 'tarballs', basename(path));
  await mkdir(join(dir, 'tarballs'), { recursive: true });
  if (resolve(kept) !== path) await copyFile(path, kept);
  return kept;
}

/** The package npm just added: a new or changed dependency, else the one naming the target. */
function installedName(before: Record<string, string>, after: Record<string, string>, target: string, spec: string): string {
  const changed = Object.keys(after).filter((name) => !SDK_PACKAGES.has(name) && before[name] !== after[name]);
  if (changed.length === 1) return changed[0]!;
  const byTarget = Object.entries(after).find(([, value]) => value.endsWith(target) || value.endsWith(basename(target)));
  if (byTarget) return byTarget[0];
  const named = /^(@[^/@]+\/[^/@]+|[^/@]+)/.exec(spec)?.[1];
  if (named && after[named] !== undefined) return named;
  if (existsSync(join(target, 'package.json'))) {
    const name = (JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { name?: string }).name;
    if (name && after[name] !== undefined) return name;
  }
  throw new NetbenchError(`installed ${spec}, but cannot tell which package it was`);
}

function tail(text: string): string {
  return text
    .trim()
    .split('\n')
    .filter((l) => !/^npm warn Unknown user config/.test(l))
    .slice(-15)
    .join('\n');
}
