import type { Host, ToolHostContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, isRoot, runOnHost } from '@netbench/plugin-api/tool-kit';
import type { PktgenTrialSettings } from './trial-settings.js';

export const PGCTRL = '/proc/net/pktgen/pgctrl';
// pgctrl: "Packet Generator for packet performance testing. Version: 2.75"
const VERSION_RE = /Version: (\S+)/;
const CHECK_TIMEOUT_MS = 15_000;

/**
 * The sending end needs the kernel's packet generator (`/proc/net/pktgen`,
 * module `pktgen`, loaded here when it is not) and root to write it; the
 * receiving end only `ip` and `/proc/net/dev`, where netbench counts what arrived.
 */
export async function checkPktgen(host: Host, ctx: ToolHostContext<PktgenTrialSettings>): Promise<ToolInfo> {
  const options = { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS };
  const kernel = await runOnHost(host, ['uname', '-r'], options);
  if (isMissing(kernel)) throw new ToolMissingError('uname', host.name, kernel.detail);
  const release = kernel.stdout.trim();
  const ip = await runOnHost(host, ['ip', '-V'], options);
  if (isMissing(ip)) throw new ToolMissingError('ip (iproute2)', host.name, ip.detail);
  if (!(ctx.roles ?? ['client']).includes('client')) return { version: release, features: { kernel: release, receiver: true }, command: '/proc/net/dev' };

  if (!(await isRoot(host, options)))
    throw new UnsupportedError(`pktgen on host ${host.name}: the sending end writes ${PGCTRL}, which only root may (commands there do not run as root)`);
  let pgctrl = await readPgctrl(host, options);
  if (pgctrl === undefined) {
    const load = await runOnHost(host, ['modprobe', 'pktgen'], options);
    pgctrl = await readPgctrl(host, options);
    if (pgctrl === undefined) {
      const why = isMissing(load) ? load.detail : load.stderr.trim() || `modprobe exit ${load.code}`;
      throw new UnsupportedError(
        `pktgen is not available on host ${host.name}: its kernel (${release}) has no ${PGCTRL} and \`modprobe pktgen\` did not load it (${why.split('\n')[0]}). ` +
          "The kernel needs CONFIG_NET_PKTGEN (Debian's and most distributions' kernels have it as a module); on this machine, run the lab in a VM with scripts/kernel-vm.sh (docs/kernel-lab.md).",
      );
    }
  }
  const version = VERSION_RE.exec(pgctrl)?.[1];
  if (!version) throw new UnsupportedError(`${PGCTRL} on host ${host.name} said ${JSON.stringify(pgctrl.trim().slice(0, 200))}, not pktgen's banner`);
  return { version, features: { kernel: release, root: true }, command: PGCTRL };
}

async function readPgctrl(host: Host, options: { signal: AbortSignal; timeoutMs: number }): Promise<string | undefined> {
  const outcome = await runOnHost(host, ['cat', PGCTRL], options);
  return !isMissing(outcome) && outcome.code === 0 ? outcome.stdout : undefined;
}
