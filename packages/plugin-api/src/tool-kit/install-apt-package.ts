import { NetbenchError, UnsupportedError } from '../errors/index.js';
import type { PluginContext } from '../plugin/common.js';
import type { Host } from '../plugin/host.js';
import { isMissing, isRoot, runOnHost } from './run-on-host.js';

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const NEEDS_UPDATE_RE = /Unable to locate package|has no installation candidate/;
const SUDO_PASSWORD_RE = /a password is required|a terminal is required/;

/**
 * `apt-get install -y <package>` on a Debian/Ubuntu host, as root or through
 * `sudo -n` (never prompts). Refreshes the package lists once when apt does
 * not know the package yet (fresh cloud images ship without them).
 */
export async function installAptPackage(host: Host, aptPackage: string, ctx: PluginContext): Promise<void> {
  const options = { signal: ctx.signal, timeoutMs: INSTALL_TIMEOUT_MS };
  const root = await isRoot(host, options);
  // `env` instead of ExecOptions.env: sudo resets the environment and SSH servers often refuse to set it.
  // The lock timeout waits out cloud-init or unattended-upgrades holding dpkg's lock on a fresh VM.
  const apt = (...args: string[]) => [...(root ? [] : ['sudo', '-n']), 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', '-o', 'DPkg::Lock::Timeout=120', ...args];
  const attempt = async (argv: string[]) => {
    const outcome = await runOnHost(host, argv, options);
    if (isMissing(outcome)) {
      const how = root ? 'apt-get' : 'sudo -n apt-get (not root)';
      throw new UnsupportedError(`cannot install ${aptPackage} on host ${host.name} with ${how}: ${outcome.detail}; install ${aptPackage} by hand`);
    }
    const output = `${outcome.stdout}\n${outcome.stderr}`;
    if (!root && SUDO_PASSWORD_RE.test(outcome.stderr)) {
      throw new UnsupportedError(
        `cannot install ${aptPackage} on host ${host.name}: sudo needs a password (netbench runs sudo -n, never prompts); allow passwordless sudo for apt-get or install ${aptPackage} by hand`,
      );
    }
    return { ok: outcome.code === 0, output };
  };

  let result = await attempt(apt('install', '-y', aptPackage));
  if (!result.ok && NEEDS_UPDATE_RE.test(result.output)) {
    ctx.log.info(`apt does not know ${aptPackage} on ${host.name} yet; running apt-get update`);
    await attempt(apt('update'));
    result = await attempt(apt('install', '-y', aptPackage));
  }
  if (!result.ok) {
    throw new NetbenchError(`apt-get install ${aptPackage} failed on host ${host.name}: ${lastLines(result.output)}`);
  }
}

function lastLines(text: string, count = 5): string {
  return text.trim().split('\n').slice(-count).join(' | ');
}
