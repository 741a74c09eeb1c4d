import { createRequire } from 'node:module';
import type {
  AddressesClient,
  FirewallsClient,
  ForwardingRulesClient,
  GlobalOperationsClient,
  InstancesClient,
  NetworksClient,
  RegionOperationsClient,
  RegionsClient,
  ResourcePoliciesClient,
  RoutersClient,
  RoutesClient,
  SubnetworksClient,
  TargetVpnGatewaysClient,
  VpnGatewaysClient,
  VpnTunnelsClient,
  ZoneOperationsClient,
} from '@google-cloud/compute';

// The SDK takes seconds to load; `plan`, `validate` and `schema` never need it,
// so it is required (it is CommonJS) when the first client is made.
type ComputeSdk = typeof import('@google-cloud/compute');
let sdk: ComputeSdk | undefined;
const computeSdk = (): ComputeSdk => (sdk ??= createRequire(import.meta.url)('@google-cloud/compute') as ComputeSdk);

type ClientOptions = NonNullable<ConstructorParameters<typeof InstancesClient>[0]>;
/** What the SDK accepts as `authClient` (a google-auth-library `AuthClient`). */
export type GcpAuthClient = NonNullable<ClientOptions['authClient']>;

export interface GcpApiOptions {
  /**
   * REST endpoint instead of `https://compute.googleapis.com`, e.g.
   * `http://127.0.0.1:8080` (contract tests) or a Private Service Connect
   * endpoint. Default: `$NETBENCH_GCP_ENDPOINT`.
   */
  readonly endpoint?: string;
  /** Credentials instead of Application Default Credentials. Default: a static
   *  bearer from `$NETBENCH_GCP_ACCESS_TOKEN` when set (e.g. `gcloud auth print-access-token`). */
  readonly authClient?: GcpAuthClient;
}

/** The Compute Engine clients a run uses, all over HTTP/JSON (`fallback`), sharing one auth. */
export interface GceClients {
  readonly networks: NetworksClient;
  readonly subnetworks: SubnetworksClient;
  readonly firewalls: FirewallsClient;
  readonly instances: InstancesClient;
  readonly resourcePolicies: ResourcePoliciesClient;
  readonly zoneOperations: ZoneOperationsClient;
  readonly regionOperations: RegionOperationsClient;
  readonly regions: RegionsClient;
  readonly globalOperations: GlobalOperationsClient;
  /** Classic Cloud VPN: gateway addresses, gateways, their forwarding rules, tunnels, static routes. */
  readonly addresses: AddressesClient;
  readonly targetVpnGateways: TargetVpnGatewaysClient;
  readonly forwardingRules: ForwardingRulesClient;
  readonly vpnTunnels: VpnTunnelsClient;
  readonly routes: RoutesClient;
  /** HA VPN and dynamic routing: HA VPN gateways, Cloud Routers (BGP). */
  readonly vpnGateways: VpnGatewaysClient;
  readonly routers: RoutersClient;
  close(): Promise<void>;
}

/**
 * A static bearer token as an auth client: what the SDK's HTTP transport
 * calls (`getRequestHeaders`, `fetch`), with no token endpoint ever contacted.
 */
export class StaticTokenAuth {
  readonly universeDomain = 'googleapis.com';
  constructor(private readonly token: string) {}
  async getRequestHeaders(): Promise<Headers> {
    return new Headers({ authorization: `Bearer ${this.token}` });
  }
  async fetch(url: string | URL, init: { headers?: ConstructorParameters<typeof Headers>[0]; method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${this.token}`);
    return fetch(url, { method: init.method ?? 'GET', headers, body: init.body as RequestInit['body'], signal: init.signal ?? null });
  }
}

function transportOptions(api: GcpApiOptions): ClientOptions {
  const endpoint = api.endpoint ?? process.env['NETBENCH_GCP_ENDPOINT'];
  const token = process.env['NETBENCH_GCP_ACCESS_TOKEN'];
  const authClient = api.authClient ?? (token ? (new StaticTokenAuth(token) as unknown as GcpAuthClient) : undefined);
  const options: ClientOptions = { fallback: true };
  if (authClient) options.authClient = authClient;
  if (endpoint) {
    const url = new URL(endpoint);
    options.apiEndpoint = url.hostname;
    options.port = Number(url.port || (url.protocol === 'http:' ? 80 : 443));
    options.protocol = url.protocol.replace(':', '');
  }
  return options;
}

export function gceClients(api: GcpApiOptions = {}): GceClients {
  const {
    FirewallsClient,
    GlobalOperationsClient,
    InstancesClient,
    NetworksClient,
    RegionOperationsClient,
    RegionsClient,
    ResourcePoliciesClient,
    SubnetworksClient,
    ZoneOperationsClient,
    AddressesClient,
    TargetVpnGatewaysClient,
    ForwardingRulesClient,
    VpnTunnelsClient,
    RoutesClient,
    VpnGatewaysClient,
    RoutersClient,
  } = computeSdk();
  const options = transportOptions(api);
  const networks = new NetworksClient({ ...options });
  // One GoogleAuth for every client: Application Default Credentials are looked up once.
  if (!options.authClient) options.auth = networks.auth;
  const clients = {
    networks,
    subnetworks: new SubnetworksClient({ ...options }),
    firewalls: new FirewallsClient({ ...options }),
    instances: new InstancesClient({ ...options }),
    resourcePolicies: new ResourcePoliciesClient({ ...options }),
    zoneOperations: new ZoneOperationsClient({ ...options }),
    regionOperations: new RegionOperationsClient({ ...options }),
    regions: new RegionsClient({ ...options }),
    globalOperations: new GlobalOperationsClient({ ...options }),
    addresses: new AddressesClient({ ...options }),
    targetVpnGateways: new TargetVpnGatewaysClient({ ...options }),
    forwardingRules: new ForwardingRulesClient({ ...options }),
    vpnTunnels: new VpnTunnelsClient({ ...options }),
    routes: new RoutesClient({ ...options }),
    vpnGateways: new VpnGatewaysClient({ ...options }),
    routers: new RoutersClient({ ...options }),
  };
  return {
    ...clients,
    async close() {
      await Promise.allSettled(Object.values(clients).map((c) => c.close()));
    },
  };
}
