import type { TokenCredential } from '@azure/identity';
import { detectPublicAddress } from '@netbench/plugin-api/cloud-kit';
import { type ArmClients, type ArmTransport, type AzureApiOptions, armClients, armTransport } from './clients.js';
import { type ConnectSsh, coreConnect } from './ssh-connect.js';

export interface AzureTiming {
  /** Deadline of one long-running operation. */
  readonly operationTimeoutMs: number;
  /** Poll interval of long-running operations. */
  readonly pollMs: number;
  /** How long to read the boot diagnostics serial log for the host keys. */
  readonly hostKeyTimeoutMs: number;
  readonly consolePollMs: number;
  readonly sshRetry: { readonly attempts: number; readonly initialDelayMs: number; readonly maxDelayMs: number };
}

export const DEFAULT_TIMING: AzureTiming = {
  operationTimeoutMs: 900_000,
  pollMs: 5_000,
  // Boot diagnostics are copied to storage periodically: keys can take minutes to show.
  hostKeyTimeoutMs: 300_000,
  consolePollMs: 15_000,
  sshRetry: { attempts: 20, initialDelayMs: 2_000, maxDelayMs: 10_000 },
};

export interface AzurePluginOptions extends AzureApiOptions {
  readonly connect?: ConnectSsh;
  readonly publicAddress?: (signal: AbortSignal) => Promise<string>;
  /** Subscription for `cleanup` (which has no spec); default as for hosts without `subscription`. */
  readonly subscription?: string;
  /** SSH port to connect to (tests); default 22. */
  readonly sshPort?: number;
  readonly timing?: Partial<AzureTiming>;
  /** Price table override file; default `$NETBENCH_AZURE_PRICES`, else `$NETBENCH_HOME/prices/azure.json`. */
  readonly priceFile?: string;
}

export interface AzureRuntime {
  readonly clients: (subscriptionId: string) => ArmClients;
  /** The credential every client uses (made on first use). */
  readonly credential: () => TokenCredential;
  readonly connect: ConnectSsh;
  readonly publicAddress: (signal: AbortSignal) => Promise<string>;
  readonly sshPort?: number;
  readonly timing: AzureTiming;
}

export function azureRuntime(options: AzurePluginOptions): AzureRuntime {
  let transport: ArmTransport | undefined;
  const cache = new Map<string, ArmClients>();
  return {
    credential: () => (transport ??= armTransport(options)).credential,
    clients: (subscriptionId) => {
      transport ??= armTransport(options);
      let clients = cache.get(subscriptionId);
      if (!clients) cache.set(subscriptionId, (clients = armClients(transport, subscriptionId)));
      return clients;
    },
    connect: options.connect ?? coreConnect,
    publicAddress: options.publicAddress ?? detectPublicAddress,
    ...(options.sshPort !== undefined ? { sshPort: options.sshPort } : {}),
    timing: { ...DEFAULT_TIMING, ...options.timing },
  };
}
