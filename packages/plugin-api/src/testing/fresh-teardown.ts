import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type PathLike, toPath } from './plugin-identity.js';

export interface TeardownPass {
  readonly deleted: readonly string[];
  readonly failed: readonly { readonly resource: string; readonly error: string }[];
}

/** The child script, from core's built output (kit run from source in core's own tests included). */
function childScript(): string {
  const beside = new URL('./teardown-child.js', import.meta.url);
  if (existsSync(fileURLToPath(beside))) return fileURLToPath(beside);
  return fileURLToPath(new URL('../../dist/testing/teardown-child.js', import.meta.url));
}

/** Tear down a ledger's pending resources of one plugin in a new Node process, `passes` times over. */
export function freshProcessTeardown(module: PathLike, ledgerFile: string, runDir: string, passes: number): Promise<TeardownPass[]> {
  const url = module instanceof URL ? module.href : pathToFileURL(toPath(module)).href;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [childScript(), url, ledgerFile, runDir, String(passes)], { timeout: 300_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the fresh teardown process failed: ${stderr.trim() || error.message}`));
      try {
        resolve((JSON.parse(stdout) as { passes: TeardownPass[] }).passes);
      } catch {
        reject(new Error(`the fresh teardown process printed no result: ${stdout}${stderr}`));
      }
    });
  });
}
