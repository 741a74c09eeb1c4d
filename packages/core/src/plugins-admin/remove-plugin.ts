import { NetbenchError } from '@netbench/plugin-api';
import type { RootInput } from '../registry/plugin-roots.js';
import { userPluginsDir } from '../registry/user-plugins-dir.js';
import { listPlugins, type PluginListing } from './list-plugins.js';
import { runNpm } from './npm-command.js';
import { pruneTarballs } from './tarballs.js';
import { readUserProject, writeUserProject } from './user-project.js';

export interface RemovePluginOptions {
  /** Plugin short name (`sockperf`) or package name (`netbench-plugin-sockperf`). */
  readonly name: string;
  readonly dir?: string;
  readonly searchDirs?: readonly RootInput[];
}

/** `netbench plugins remove`: uninstall a plugin `plugins add` installed. Built-ins and project packages are refused. */
export async function removePlugin(options: RemovePluginOptions): Promise<PluginListing> {
  const dir = options.dir ?? userPluginsDir();
  const { plugins } = listPlugins({ dir, ...(options.searchDirs ? { searchDirs: options.searchDirs } : {}) });
  const matches = plugins.filter((p) => p.name === options.name || p.packageName === options.name);
  const mine = matches.filter((p) => p.source === 'user');
  if (mine.length === 0) {
    const other = matches[0];
    if (other)
      throw new NetbenchError(
        `${other.kind} ${other.name} is ${other.source === 'built-in' ? 'built into netbench' : `installed in ${other.dir}, not the user plugin folder`}; only plugins added with \`netbench plugins add\` can be removed`,
      );
    const installed = plugins.filter((p) => p.source === 'user').map((p) => p.name);
    throw new NetbenchError(`no plugin named ${options.name} was added; ${installed.length > 0 ? `added: ${installed.join(', ')}` : 'none was added'}`);
  }
  if (new Set(mine.map((p) => p.packageName)).size > 1) {
    throw new NetbenchError(`${options.name} names several packages (${mine.map((p) => p.packageName).join(', ')}); give the package name`);
  }
  const plugin = mine[0]!;
  const result = await runNpm(['uninstall', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund', plugin.packageName], { cwd: dir });
  if (result.code !== 0) throw new NetbenchError(`npm could not uninstall ${plugin.packageName}:\n${result.stderr.trim()}`);
  const project = readUserProject(dir);
  if (project.netbench?.plugins?.[plugin.packageName]) {
    delete project.netbench.plugins[plugin.packageName];
    await writeUserProject(dir, project);
  }
  await pruneTarballs(dir);
  return plugin;
}
