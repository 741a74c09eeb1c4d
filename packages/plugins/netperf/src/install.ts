import type { Host, PluginContext } from '@netbench/plugin-api';
import { NetbenchError, UnsupportedError } from '@netbench/plugin-api';

const INSTALL_TIMEOUT_MS = 600_000;
const NOT_FOUND_RE = /No such file or directory|command not found|not found/i;
const SUDO_PASSWORD_RE = /a password is required|a terminal is required/;
const SUDO_MISSING_RE = /\bsudo\b.*(not found|No such file|ENOENT)/;

interface Attempt {
  readonly code: number | null;
  readonly output: string;
}

async function attempt(host: Host, argv: string[], ctx: PluginContext): Promise<Attempt> {
  let outcome: Attempt;
  try {
    const result = await host.exec(argv, { timeoutMs: INSTALL_TIMEOUT_MS, signal: ctx.signal });
    outcome = { code: result.code, output: `${result.stdout}\n${result.stderr}`.trim() };
  } catch (error) {
    ctx.signal.throwIfAborted();
    outcome = { code: null, output: error instanceof Error ? error.message : String(error) };
  }
  // Over SSH as a normal user, sudo is what stops us; say so instead of blaming the package manager.
  if (argv[0] === 'sudo' && outcome.code !== 0) {
    if (SUDO_PASSWORD_RE.test(outcome.output)) {
      throw new UnsupportedError(
        `cannot install netperf on host ${host.name}: sudo needs a password (netbench runs sudo -n, never prompts); allow passwordless sudo for the package manager or install netperf by hand`,
      );
    }
    if (SUDO_MISSING_RE.test(outcome.output)) {
      throw new UnsupportedError(`cannot install netperf on host ${host.name}: not root and sudo is not installed; install netperf by hand`);
    }
  }
  return outcome;
}

/**
 * Install netperf (which brings netserver) with the host's package manager:
 * apt-get (Debian: `non-free` component; Ubuntu: `multiverse`), else dnf or
 * yum (EPEL). Uses `sudo -n` when not root. Throws when none worked, with
 * what each said.
 */
export async function installNetperf(host: Host, ctx: PluginContext): Promise<void> {
  const uid = await attempt(host, ['id', '-u'], ctx);
  const sudo = uid.code === 0 && uid.output.trim() === '0' ? [] : ['sudo', '-n'];
  // `env` in argv rather than ExecOptions.env: sudo resets the environment and SSH servers refuse most variables.
  const apt = [...sudo, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
  const aptInstall = [...apt, '-o', 'DPkg::Lock::Timeout=120', 'install', '-y', '--no-install-recommends', 'netperf'];
  const said: string[] = [];

  let installed = await attempt(host, aptInstall, ctx);
  if (installed.code !== 0 && /Unable to locate package|has no installation candidate/.test(installed.output)) {
    // Fresh machines often have empty package lists.
    await attempt(host, [...apt, 'update'], ctx);
    installed = await attempt(host, aptInstall, ctx);
  }
  if (installed.code === 0) return;
  said.push(`apt-get: ${installed.output.split('\n').slice(-2).join(' ')}`);
  if (!NOT_FOUND_RE.test(installed.output) || /Unable to locate package/.test(installed.output)) {
    throw new NetbenchError(`could not install netperf on ${host.name} (on Debian it is in the non-free component, on Ubuntu in multiverse): ${said.join('; ')}`);
  }
  for (const manager of ['dnf', 'yum']) {
    const result = await attempt(host, [...sudo, manager, 'install', '-y', 'netperf'], ctx);
    if (result.code === 0) return;
    said.push(`${manager}: ${result.output.split('\n').slice(-2).join(' ')}`);
  }
  throw new NetbenchError(`could not install netperf on ${host.name} (on RHEL-like systems it is in EPEL): ${said.join('; ')}`);
}
