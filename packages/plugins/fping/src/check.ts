import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, isRoot, runOnHost } from '@netbench/plugin-api/tool-kit';

// "fping: Version 5.1"
const VERSION_RE = /fping: Version (\d+\.\d+(?:\.\d+)?)/;
const CHECK_TIMEOUT_MS = 15_000;

/** `fping -v` on the host: its version, and whether commands there run as root (periods below 10 ms). */
export async function checkFping(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const options = { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS };
  const outcome = await runOnHost(host, ['fping', '-v'], options);
  if (isMissing(outcome)) throw new ToolMissingError('fping', host.name, outcome.detail);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  const version = readFpingVersion(text);
  if (!version) throw new UnsupportedError(`fping -v on host ${host.name} said ${JSON.stringify(text.trim().slice(0, 200))}, not fping`);
  return { version, features: { root: await isRoot(host, options) }, command: 'fping' };
}

export function readFpingVersion(text: string): string | undefined {
  return VERSION_RE.exec(text)?.[1];
}
