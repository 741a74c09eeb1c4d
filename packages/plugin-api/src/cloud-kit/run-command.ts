import { spawn } from 'node:child_process';

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run an argv on this machine (netbench's own namespace) and collect its output:
 * what cloud plugins that manage local resources (namespaces, containers, tc) use. Never
 * rejects on a non-zero exit (the caller decides); rejects when the program
 * cannot be started. `ENOENT` becomes code 127 so callers can treat a missing
 * tool like a failed one.
 */
export function runCommand(argv: readonly string[], options: { stdin?: string; timeoutMs?: number } = {}): Promise<CommandResult> {
  const [command, ...args] = argv;
  if (!command) return Promise.reject(new Error('empty argv'));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT') resolve({ code: 127, stdout: '', stderr: `${command}: not found` });
      else reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Run and throw with the command and its stderr when it fails. */
export async function mustRun(argv: readonly string[], options: { timeoutMs?: number } = {}): Promise<string> {
  const result = await runCommand(argv, options);
  if (result.code !== 0) {
    throw new Error(`${argv.join(' ')} failed (exit ${result.code ?? 'signal'}): ${result.stderr.trim() || result.stdout.trim()}`);
  }
  return result.stdout;
}
