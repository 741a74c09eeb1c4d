import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { PluginKind } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import { cloudFiles } from './templates/cloud-files.js';
import { type Files, gitignore, packageJson, type ScaffoldInput, tsconfig } from './templates/common-files.js';
import { publisherFiles } from './templates/publisher-files.js';
import { toolFiles } from './templates/tool-files.js';
import { runningPluginApiDir } from './user-project.js';

export interface NewPluginOptions {
  readonly kind: PluginKind;
  /** Short name used in specs (`tool: <name>`): lower-case letters, digits and dashes. */
  readonly name: string;
  /** Folder to create; default `./netbench-plugin-<name>` under `cwd`. It must not exist or be empty (or `force`). */
  readonly dir?: string;
  readonly cwd?: string;
  /** Package name; default `netbench-plugin-<name>`. */
  readonly packageName?: string;
  /**
   * npm spec of @netbench/plugin-api to develop against (devDependency).
   * Default: the installed netbench's own (`file:` link), so `npm install`
   * works offline and before the SDK is published; `^0.1.0` once it is.
   */
  readonly apiSpec?: string;
  /** Write into a folder that is not empty (the scaffold's files are overwritten; others are kept). */
  readonly force?: boolean;
}

export interface NewPlugin {
  readonly dir: string;
  readonly packageName: string;
  readonly files: readonly string[];
}

const NAME_RE = /^[a-z][a-z0-9-]*$/;
const PACKAGE_RE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const FILES: Record<PluginKind, (input: ScaffoldInput) => Files> = { tool: toolFiles, cloud: cloudFiles, publisher: publisherFiles };

/**
 * `netbench plugins new`: write a ready plugin package — TypeScript, build,
 * conformance tests, README — that passes its own tests after `npm install`.
 */
export async function newPlugin(options: NewPluginOptions): Promise<NewPlugin> {
  if (!NAME_RE.test(options.name)) throw new NetbenchError(`plugin name ${JSON.stringify(options.name)}: use lower-case letters, digits and dashes, starting with a letter`);
  const packageName = options.packageName ?? `netbench-plugin-${options.name}`;
  if (!PACKAGE_RE.test(packageName)) throw new NetbenchError(`package name ${JSON.stringify(packageName)} is not a valid npm name`);
  const dir = resolve(options.cwd ?? process.cwd(), options.dir ?? packageName.replace(/^@[^/]+\//, ''));
  if (!options.force && existsSync(dir) && readdirSync(dir).length > 0) {
    throw new NetbenchError(`${dir} exists and is not empty: choose another --dir, or pass --force to write the scaffold's files over it`);
  }
  const apiDir = runningPluginApiDir();
  const apiVersion = (JSON.parse(readFileSync(join(apiDir, 'package.json'), 'utf8')) as { version: string }).version;
  const input: ScaffoldInput = { kind: options.kind, name: options.name, packageName, apiVersion, apiSpec: options.apiSpec ?? `file:${apiDir}` };
  const files: Files = {
    'package.json': packageJson(input),
    'tsconfig.json': tsconfig(),
    '.gitignore': gitignore,
    ...FILES[options.kind](input),
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return { dir, packageName, files: Object.keys(files).sort() };
}
