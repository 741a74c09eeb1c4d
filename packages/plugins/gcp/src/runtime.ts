import { detectPublicAddress } from '@netbench/plugin-api/cloud-kit';
import type { GceClients, GcpApiOptions } from './clients.js';
import { gceClients } from './clients.js';
import { type ConnectSsh, coreConnect } from './ssh-connect.js';

/** Timings, all overridable (tests shorten them). */
export interface GcpTiming {
  /** Deadline of one create/delete operation. */
  readonly operationTimeoutMs: number;
  /** How long to read the serial console for the host keys. */
  readonly hostKeyTimeoutMs: number;
  readonly serialPollMs: number;
  /** SSH connection attempts while the machine boots. */
  readonly sshRetry: { readonly attempts: number; readonly initialDelayMs: number; readonly maxDelayMs: number };
  /** Deletes refused because a dependent resource still exists are retried this long. */
  readonly inUseRetryMs: number;
  readonly inUsePollMs: number;
}

export const DEFAULT_TIMING: GcpTiming = {
  operationTimeoutMs: 600_000,
  hostKeyTimeoutMs: 240_000,
  serialPollMs: 5_000,
  sshRetry: { attempts: 20, initialDelayMs: 2_000, maxDelayMs: 10_000 },
  inUseRetryMs: 300_000,
  inUsePollMs: 5_000,
};

export interface GcpPluginOptions extends GcpApiOptions {
  /** SSH transport; default the engine's `ctx.connectSsh`. */
  readonly connect?: ConnectSsh;
  /** The address SSH is allowed from when hosts set no `sshFrom`; default: asked of an echo service. */
  readonly publicAddress?: (signal: AbortSignal) => Promise<string>;
  /** Project for `cleanup` (which has no spec); default: as for hosts without `project`. */
  readonly project?: string;
  /** SSH port to connect to (tests); default 22. */
  readonly sshPort?: number;
  readonly timing?: Partial<GcpTiming>;
  /** Price table override file; default `$NETBENCH_GCP_PRICES`, else `$NETBENCH_HOME/prices/gcp.json`. */
  readonly priceFile?: string;
}

/** What provision, teardown and cleanup share; clients are made on first use. */
export interface GcpRuntime {
  readonly clients: () => GceClients;
  readonly connect: ConnectSsh;
  readonly publicAddress: (signal: AbortSignal) => Promise<string>;
  readonly sshPort?: number;
  readonly timing: GcpTiming;
}

export function gcpRuntime(options: GcpPluginOptions): GcpRuntime {
  let clients: GceClients | undefined;
  return {
    clients: () => (clients ??= gceClients(options)),
    connect: options.connect ?? coreConnect,
    publicAddress: options.publicAddress ?? detectPublicAddress,
    ...(options.sshPort !== undefined ? { sshPort: options.sshPort } : {}),
    timing: { ...DEFAULT_TIMING, ...options.timing },
  };
}
