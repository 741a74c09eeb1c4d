import { NetbenchError, type Host, type PluginContext } from '@netbench/core';

const INSTALL_TIMEOUT_MS = 600_000;
const NOT_FOUND_RE = /No such file or directory|command not found|not found/i;

interface Attempt {
  readonly code: number | null;
  readonly output: string;
}

async function attempt(host: Host, argv: string[], ctx: PluginContext, env?: Record<string, string>): Promise<Attempt> {
  try {
    const result = await host.exec(argv, { timeoutMs: INSTALL_TIMEOUT_MS, signal: ctx.signal, env });
    return { code: result.code, output: `${result.stdout}\n${result.stderr}`.trim() };
  } catch (error) {
    ctx.signal.throwIfAborted();
    return { code: null, output: error instanceof Error ? error.message : String(error) };
  }
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
  const aptEnv = { DEBIAN_FRONTEND: 'noninteractive' };
  const aptInstall = [...sudo, 'apt-get', '-o', 'DPkg::Lock::Timeout=120', 'install', '-y', '--no-install-recommends', 'netperf'];
  const said: string[] = [];

  let apt = await attempt(host, aptInstall, ctx, aptEnv);
  if (apt.code !== 0 && /Unable to locate package|has no installation candidate/.test(apt.output)) {
    // Fresh machines often have empty package lists.
    await attempt(host, [...sudo, 'apt-get', 'update'], ctx, aptEnv);
    apt = await attempt(host, aptInstall, ctx, aptEnv);
  }
  if (apt.code === 0) return;
  said.push(`apt-get: ${apt.output.split('\n').slice(-2).join(' ')}`);
  if (!NOT_FOUND_RE.test(apt.output) || /Unable to locate package/.test(apt.output)) {
    throw new NetbenchError(`could not install netperf on ${host.name} (on Debian it is in the non-free component, on Ubuntu in multiverse): ${said.join('; ')}`);
  }
  for (const manager of ['dnf', 'yum']) {
    const result = await attempt(host, [...sudo, manager, 'install', '-y', 'netperf'], ctx);
    if (result.code === 0) return;
    said.push(`${manager}: ${result.output.split('\n').slice(-2).join(' ')}`);
  }
  throw new NetbenchError(`could not install netperf on ${host.name} (on RHEL-like systems it is in EPEL): ${said.join('; ')}`);
}
