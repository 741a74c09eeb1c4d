import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** package.json of the user plugin folder. */
export interface UserProjectJson {
  name?: string;
  private?: boolean;
  description?: string;
  dependencies?: Record<string, string>;
  netbench?: { plugins?: Record<string, { kind: string; name: string }> };
  [key: string]: unknown;
}

/** The folder of the @netbench/plugin-api the running netbench loads plugins with (the CLI's own copy). */
export function runningPluginApiDir(): string {
  return realpathSync(dirname(createRequire(import.meta.url).resolve('@netbench/plugin-api/package.json')));
}

export function readUserProject(dir: string): UserProjectJson {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as UserProjectJson) : {};
}

export async function writeUserProject(dir: string, project: UserProjectJson): Promise<void> {
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(project, null, 2)}\n`);
}

/**
 * Make the user plugin folder an npm project whose `@netbench/plugin-api` is
 * the running CLI's own (a `file:` link). Plugins peer-depend on it, so npm
 * satisfies the peer with that link instead of fetching a copy, and a plugin
 * imports the very SDK the engine uses. Re-pointed on every change, so it
 * follows the CLI when it is upgraded or moved. (Folders made before the SDK
 * had its own package linked `@netbench/core`; that link is dropped.)
 */
export async function ensureUserProject(dir: string): Promise<UserProjectJson> {
  await mkdir(dir, { recursive: true });
  const project = readUserProject(dir);
  const next: UserProjectJson = {
    name: 'netbench-user-plugins',
    private: true,
    description: 'Plugins installed with `netbench plugins add`; managed by netbench.',
    ...project,
    dependencies: { ...withoutCore(project.dependencies), '@netbench/plugin-api': `file:${runningPluginApiDir()}` },
  };
  await writeUserProject(dir, next);
  return next;
}

function withoutCore(dependencies: Record<string, string> = {}): Record<string, string> {
  const { '@netbench/core': _core, ...rest } = dependencies;
  return rest;
}
