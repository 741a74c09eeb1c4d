import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, isRoot, runOnHost } from '@netbench/plugin-api/tool-kit';

// "hping3 version 3.0.0-alpha-2 ($Id: release.h,v 1.4 2004/04/09 23:38:56 antirez Exp $)"
const VERSION_RE = /hping3 version (\S+)/;
const CHECK_TIMEOUT_MS = 15_000;

/** `hping3 --version` on the host; hping3 writes raw packets, so commands there must run as root. */
export async function checkHping3(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const options = { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS };
  const outcome = await runOnHost(host, ['hping3', '--version'], options);
  if (isMissing(outcome)) throw new ToolMissingError('hping3', host.name, outcome.detail);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  const version = readHping3Version(text);
  if (!version) throw new UnsupportedError(`hping3 --version on host ${host.name} said ${JSON.stringify(text.trim().slice(0, 200))}, not hping3`);
  const root = await isRoot(host, options);
  return { version, features: { root }, command: 'hping3' };
}

export function readHping3Version(text: string): string | undefined {
  return VERSION_RE.exec(text)?.[1];
}
