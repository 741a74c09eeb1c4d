import type { Host, PluginContext, ToolInfo } from '@netbench/plugin-api';
import { ToolMissingError, UnsupportedError } from '@netbench/plugin-api';
import { isMissing, isRoot, runOnHost } from '@netbench/plugin-api/tool-kit';

// `ping from iputils 20221126` (2021+) or `ping utility, iputils-s20180629` (older).
const IPUTILS_VERSION_RE = /iputils[- ]?s*(\d{8})/;
/** iputils lowered the smallest interval a normal user may ask for from 200 ms to 2 ms in release 20210202. */
const LOW_USER_INTERVAL_SINCE = 20210202;

export interface PingFeatures {
  /** Commands run as root: any interval, flood allowed. */
  readonly root: boolean;
  /** `-f` allowed (root only). */
  readonly flood_allowed: boolean;
  /** Smallest `-i` in seconds without root, as a decimal string. */
  readonly min_user_interval: string;
}

const CHECK_TIMEOUT_MS = 15_000;

/** `ping -V` on the host: iputils version, and what the caller's privileges allow. */
export async function checkPing(host: Host, ctx: PluginContext): Promise<ToolInfo> {
  const options = { signal: ctx.signal, timeoutMs: CHECK_TIMEOUT_MS };
  // Both at once: over SSH each is a round trip.
  const [outcome, root] = await Promise.all([runOnHost(host, ['ping', '-V'], options), isRoot(host, options)]);
  if (isMissing(outcome)) throw new ToolMissingError('ping', host.name, outcome.detail);
  const text = `${outcome.stdout}\n${outcome.stderr}`;
  const info = readPingVersion(text);
  if (outcome.code !== 0 || !info) {
    // BusyBox and BSD pings print other formats that the parser does not read.
    throw new UnsupportedError(`ping on host ${host.name} is not iputils ping (ping -V said ${JSON.stringify(text.trim().slice(0, 200))}); install iputils-ping`);
  }
  const features: PingFeatures = { root, flood_allowed: root, min_user_interval: info.minUserInterval };
  return { version: info.version, features: { ...features }, command: 'ping' };
}

/** Parse `ping -V` text; undefined when it is not iputils'. */
export function readPingVersion(text: string): { version: string; minUserInterval: string } | undefined {
  const match = IPUTILS_VERSION_RE.exec(text);
  if (!match) return undefined;
  const date = Number(match[1]);
  return { version: `s${match[1]}`, minUserInterval: date >= LOW_USER_INTERVAL_SINCE ? '0.002' : '0.2' };
}
