import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ComputeManagementClient } from '@azure/arm-compute';
import type { NetworkManagementClient } from '@azure/arm-network';
import type { ResourceManagementClient } from '@azure/arm-resources';
import type { AccessToken, TokenCredential } from '@azure/identity';

// The Azure SDKs take seconds to load; `plan`, `validate` and `schema` never
// need them, so they are required (CommonJS builds) on first use.
const requireSdk = createRequire(import.meta.url);
const identity = () => requireSdk('@azure/identity') as typeof import('@azure/identity');
const armSdks = () => ({
  ...(requireSdk('@azure/arm-compute') as typeof import('@azure/arm-compute')),
  ...(requireSdk('@azure/arm-network') as typeof import('@azure/arm-network')),
  ...(requireSdk('@azure/arm-resources') as typeof import('@azure/arm-resources')),
});

export interface AzureApiOptions {
  /**
   * Resource Manager endpoint instead of `https://management.azure.com`
   * (sovereign clouds, contract tests). Default `$NETBENCH_AZURE_ENDPOINT`.
   */
  readonly endpoint?: string;
  /** Credential instead of `DefaultAzureCredential`; default a static bearer from `$NETBENCH_AZURE_ACCESS_TOKEN` when set. */
  readonly credential?: TokenCredential;
  /** Extra CA certificates (PEM) to trust for the endpoint and blob downloads; default the file `$NETBENCH_AZURE_CA_FILE`. */
  readonly ca?: string;
}

/** A fixed bearer token (e.g. `az account get-access-token --query accessToken -o tsv`). */
export class StaticTokenCredential implements TokenCredential {
  constructor(private readonly token: string) {}
  async getToken(): Promise<AccessToken> {
    return { token: this.token, expiresOnTimestamp: Date.now() + 3_600_000 };
  }
}

export interface ArmClients {
  readonly subscriptionId: string;
  readonly resources: ResourceManagementClient;
  readonly network: NetworkManagementClient;
  readonly compute: ComputeManagementClient;
  /** PEM to trust for HTTPS downloads (boot diagnostics blobs), when overridden. */
  readonly ca?: string;
}

export interface ArmTransport {
  readonly credential: TokenCredential;
  readonly endpoint?: string;
  readonly ca?: string;
}

export function armTransport(api: AzureApiOptions): ArmTransport {
  const endpoint = api.endpoint ?? process.env['NETBENCH_AZURE_ENDPOINT'];
  const caFile = process.env['NETBENCH_AZURE_CA_FILE'];
  const ca = api.ca ?? (caFile ? readFileSync(caFile, 'utf8') : undefined);
  const token = process.env['NETBENCH_AZURE_ACCESS_TOKEN'];
  const credential = api.credential ?? (token ? new StaticTokenCredential(token) : new (identity().DefaultAzureCredential)());
  return { credential, ...(endpoint ? { endpoint } : {}), ...(ca ? { ca } : {}) };
}

/** The three Resource Manager clients of one subscription, sharing one credential. */
export function armClients(transport: ArmTransport, subscriptionId: string): ArmClients {
  const sdks = armSdks();
  const options = {
    ...(transport.endpoint ? { endpoint: transport.endpoint } : {}),
    ...(transport.ca ? { tlsOptions: { ca: transport.ca } } : {}),
  };
  return {
    subscriptionId,
    resources: new sdks.ResourceManagementClient(transport.credential, subscriptionId, options),
    network: new sdks.NetworkManagementClient(transport.credential, subscriptionId, options),
    compute: new sdks.ComputeManagementClient(transport.credential, subscriptionId, options),
    ...(transport.ca ? { ca: transport.ca } : {}),
  };
}
