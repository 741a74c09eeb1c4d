import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

/** Who made a run (recorded in its record): the OS user, else `$USER`, else `unknown`. */
export function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? 'unknown';
  }
}

let version: string | undefined;
/** @netbench/core's version, read once from its package.json (recorded in every run). */
export function coreVersion(): string {
  try {
    version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    version = '0.0.0';
  }
  return version;
}
