import type { Host, ToolHostContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError } from '@netbench/plugin-api';
import { isMissing, runOnHost } from '@netbench/plugin-api/tool-kit';

const CHECK_TIMEOUT_MS = 15_000;

/** Where `scripts/install-oha.sh` puts oha when it is not on PATH (under the user's home on the host). */
export const OHA_CACHE_BIN = '.cache/netbench/oha/bin/oha';

// The Debian programs the plugin runs, and the package each comes in.
const APT_TOOLS = [
  { name: 'nginx', argv: ['nginx', '-v'], version: /nginx\/(\S+)/, aptPackage: 'nginx' },
  { name: 'openssl', argv: ['openssl', 'version'], version: /OpenSSL (\S+)/, aptPackage: 'openssl' },
  { name: 'ab', argv: ['ab', '-V'], version: /Version (\S+)/, aptPackage: 'apache2-utils' },
  { name: 'wrk', argv: ['wrk', '--version'], version: /^wrk (\S+)/m, aptPackage: 'wrk' },
] as const;

export const APT_PACKAGES = APT_TOOLS.map((tool) => tool.aptPackage);

/** How oha is installed where it is missing (a cargo build: minutes, so neither `install` nor setup.sh does it unasked). */
export const OHA_INSTALL_HINT =
  'install it with packages/plugins/http/scripts/install-oha.sh of @netbench/plugin-http (cargo install oha --locked, cached under ~/.cache/netbench/oha; takes minutes)';

/**
 * Versions of nginx, openssl, ab and wrk (Debian packages; any missing is a
 * ToolMissingError, so `install` puts them all in). oha is not in the
 * version or features of a run's check, so whether it is installed never
 * changes the labels of ab or wrk results; but a client host of an oha trial
 * without oha is refused here, in prepare, before any trial runs. With no
 * trials (`netbench doctor`), oha is reported as a feature: its version, or
 * that it is missing and how to install it.
 */
export async function checkHttp(host: Host, ctx: ToolHostContext): Promise<ToolInfo> {
  const options = { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS };
  const features: Record<string, string> = {};
  const missing: string[] = [];
  for (const tool of APT_TOOLS) {
    const outcome = await runOnHost(host, tool.argv, options);
    if (isMissing(outcome)) {
      missing.push(`${tool.name} (Debian package ${tool.aptPackage})`);
      continue;
    }
    features[tool.name] = tool.version.exec(`${outcome.stdout}\n${outcome.stderr}`)?.[1] ?? 'unknown';
  }
  if (missing.length > 0) throw new ToolMissingError(missing.join(', '), host.name);
  const info = { version: `nginx ${features.nginx}, ab ${features.ab}, wrk ${features.wrk}`, features };
  const ohaClient = ctx.roles?.includes('client') === true && ctx.trials?.some((t) => t['generator'] === 'oha') === true;
  if (ohaClient && (await findOha(host, ctx.signal)) === undefined) throw new ToolMissingError('oha', host.name, `an oha trial runs its client here; ${OHA_INSTALL_HINT}`);
  if (ctx.trials?.length === 0) {
    const oha = await findOha(host, ctx.signal);
    return { ...info, features: { ...features, oha: oha ? oha.version : `missing: ${OHA_INSTALL_HINT}` } };
  }
  return info;
}

/** oha on PATH, else where scripts/install-oha.sh caches it (`~/.cache/netbench/oha/bin/oha` on the host). */
export async function findOha(host: Host, signal: AbortSignal): Promise<{ command: string; version: string } | undefined> {
  const options = { signal, timeoutMs: CHECK_TIMEOUT_MS };
  const onPath = await runOnHost(host, ['oha', '--version'], options);
  if (!isMissing(onPath) && onPath.code === 0) return { command: 'oha', version: ohaVersion(onPath.stdout) };
  // The cache the install script fills; $HOME is the host's, so ask the host's shell (a fixed script, no spec value in it).
  const cached = await runOnHost(host, ['sh', '-c', `p="$HOME/${OHA_CACHE_BIN}"; "$p" --version && printf '%s\\n' "$p"`], options);
  if (isMissing(cached) || cached.code !== 0) return undefined;
  const lines = cached.stdout.trim().split('\n');
  return { command: lines.at(-1)!, version: ohaVersion(lines[0] ?? '') };
}

function ohaVersion(text: string): string {
  return /oha (\S+)/.exec(text)?.[1] ?? 'unknown';
}
