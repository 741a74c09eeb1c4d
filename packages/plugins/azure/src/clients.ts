import { readFileSync } from 'node:fs';
import type { AccessToken, TokenCredential } from '@azure/identity';
import { ComputeManagementClient } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import { ResourceManagementClient } from '@azure/arm-resources';
import { DefaultAzureCredential } from '@azure/identity';

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
  const credential = api.credential ?? (token ? new StaticTokenCredential(token) : new DefaultAzureCredential());
  return { credential, ...(endpoint ? { endpoint } : {}), ...(ca ? { ca } : {}) };
}

/** The three Resource Manager clients of one subscription, sharing one credential. */
export function armClients(transport: ArmTransport, subscriptionId: string): ArmClients {
  const options = {
    ...(transport.endpoint ? { endpoint: transport.endpoint } : {}),
    ...(transport.ca ? { tlsOptions: { ca: transport.ca } } : {}),
  };
  return {
    subscriptionId,
    resources: new ResourceManagementClient(transport.credential, subscriptionId, options),
    network: new NetworkManagementClient(transport.credential, subscriptionId, options),
    compute: new ComputeManagementClient(transport.credential, subscriptionId, options),
    ...(transport.ca ? { ca: transport.ca } : {}),
  };
}
