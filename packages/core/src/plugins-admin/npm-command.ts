import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface NpmResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * argv that runs npm: the npm bundled with the running Node when there is
 * one (so the CLI works with the Node it was started with), else `npm` on PATH.
 */
export function npmArgv(): string[] {
  const fromNpm = process.env['npm_execpath'];
  if (fromNpm && /npm-cli\.js$/.test(fromNpm) && existsSync(fromNpm)) return [process.execPath, fromNpm];
  const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (existsSync(bundled)) return [process.execPath, bundled];
  return ['npm'];
}

/** Run npm with an argv array (never a shell string). Resolves whatever the exit code. */
export function runNpm(args: readonly string[], options: { cwd: string; timeoutMs?: number }): Promise<NpmResult> {
  const [command, ...prefix] = npmArgv();
  return new Promise((resolve, reject) => {
    execFile(
      command!,
      [...prefix, ...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 600_000,
        maxBuffer: 1 << 26,
        // npm's progress and update checks only slow a non-interactive install down.
        env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_progress: 'false' },
      },
      (error, stdout, stderr) => {
        if (error && typeof (error as { code?: unknown }).code !== 'number') return reject(error);
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
