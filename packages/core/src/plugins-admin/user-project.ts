import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** package.json of the user plugin folder. */
export interface UserProjectJson {
  name?: string;
  private?: boolean;
  description?: string;
  dependencies?: Record<string, string>;
  netbench?: { plugins?: Record<string, { kind: string; name: string }> };
  [key: string]: unknown;
}

/** The folder of the @netbench/core this code runs from (the CLI's own copy). */
export function runningCoreDir(): string {
  return realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
}

export function readUserProject(dir: string): UserProjectJson {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as UserProjectJson) : {};
}

export async function writeUserProject(dir: string, project: UserProjectJson): Promise<void> {
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(project, null, 2)}\n`);
}

/**
 * Make the user plugin folder an npm project whose `@netbench/core` is the
 * running CLI's own (a `file:` link). Plugins peer-depend on core, so npm
 * then satisfies the peer with that link instead of fetching a copy, and a
 * plugin imports the very core that loads it. Re-pointed on every change,
 * so it follows the CLI when it is upgraded or moved.
 */
export async function ensureUserProject(dir: string): Promise<UserProjectJson> {
  await mkdir(dir, { recursive: true });
  const project = readUserProject(dir);
  const next: UserProjectJson = {
    name: 'netbench-user-plugins',
    private: true,
    description: 'Plugins installed with `netbench plugins add`; managed by netbench.',
    ...project,
    dependencies: { ...project.dependencies, '@netbench/core': `file:${runningCoreDir()}` },
  };
  await writeUserProject(dir, next);
  return next;
}
