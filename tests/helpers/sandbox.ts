import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * A private network, mount and pid namespace for tests that run
 * `netbench cleanup --all`: it sweeps by naming every lab of the machine, so
 * on a shared machine it must see only the test's own namespaces, links,
 * processes and `/dev/shm` (where runs keep the machine copy of run.lock).
 * Its namespaces and links are real; they die with the sandbox.
 */
export interface Sandbox {
  /** Prefix for `startCli`'s `wrapper`: the command runs inside. */
  readonly wrapper: readonly string[];
  /** The same, for a command that must start in `dir` (nsenter would start it in the sandbox holder's). */
  wrapperIn(dir: string): readonly string[];
  /** Run a command inside and return its stdout. */
  exec(argv: readonly string[]): string;
  close(): Promise<void>;
}

const SETUP = 'mkdir -p /run/netns && mount -t tmpfs nbt-sandbox /run/netns && mount -t tmpfs nbt-sandbox /dev/shm && ip link set lo up && echo ready && exec sleep 3600';

export async function openSandbox(): Promise<Sandbox> {
  const child: ChildProcess = spawn('unshare', ['--mount', '--net', '--pid', '--fork', '--kill-child', '--mount-proc', '--propagation', 'private', 'sh', '-c', SETUP], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`unshare exited (${code}) before the sandbox was ready`)));
    child.stdout!.once('data', () => resolve());
  });
  // The namespaces' holder is unshare's forked child (pid 1 inside).
  const inner = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0];
  if (!inner) throw new Error('cannot find the sandbox process');
  // By its path: a test may run the CLI with a PATH that lacks it.
  const nsenter = execFileSync('sh', ['-c', 'command -v nsenter'], { encoding: 'utf8' }).trim();
  const wrapper = [nsenter, '-t', inner, '--mount', '--net', '--pid', '--'];
  return {
    wrapper,
    wrapperIn: (dir) => [nsenter, '-t', inner, '--mount', '--net', '--pid', `--wd=${dir}`, '--'],
    exec: (argv) => execFileSync(wrapper[0]!, [...wrapper.slice(1), ...argv], { encoding: 'utf8' }),
    close: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Whether this machine can make one (root, util-linux's unshare/nsenter). */
export function sandboxPossible(): boolean {
  try {
    execFileSync('unshare', ['--mount', '--net', '--pid', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
