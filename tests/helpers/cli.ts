import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const cliBin = join(repoRoot, 'packages/cli/bin/run.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Wrap the node invocation, e.g. ['setpriv', '--reuid=65534', '--']. */
  wrapper?: readonly string[];
  node?: string;
}

/** A temporary NETBENCH_HOME, so runs never touch the user's ~/.netbench. */
export function tempHome(prefix = 'netbench-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Start the built CLI as a real child process. */
export function startCli(args: readonly string[], options: CliOptions = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const argv = [...(options.wrapper ?? []), options.node ?? process.execPath, cliBin, ...args];
  const [command, ...rest] = argv;
  const child = spawn(command!, rest, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<CliResult>((resolveDone, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}
