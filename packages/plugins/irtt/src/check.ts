import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, runOnHost } from '@netbench/plugin-api/tool-kit';

const VERSION_RE = /^irtt version: (\S+)$/m;
const JSON_FORMAT_RE = /^json format version: (\d+)$/m;
const CHECK_TIMEOUT_MS = 15_000;

/** `irtt version` on the host. */
export async function checkIrtt(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const outcome = await runOnHost(host, ['irtt', 'version'], { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS });
  if (isMissing(outcome)) throw new ToolMissingError('irtt', host.name, outcome.detail);
  const info = readIrttVersion(outcome.stdout);
  if (!info) {
    throw new UnsupportedError(`irtt version on host ${host.name} said ${JSON.stringify(`${outcome.stdout}${outcome.stderr}`.trim().slice(0, 200))}, not irtt's version`);
  }
  return { version: info.version, features: { json_format: info.jsonFormat }, command: 'irtt' };
}

/** Version and JSON format from `irtt version`; undefined when it is not irtt. */
export function readIrttVersion(text: string): { version: string; jsonFormat: string } | undefined {
  const version = VERSION_RE.exec(text)?.[1];
  if (version === undefined) return undefined;
  return { version, jsonFormat: JSON_FORMAT_RE.exec(text)?.[1] ?? 'unknown' };
}
