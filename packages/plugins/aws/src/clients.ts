import { EC2Client } from '@aws-sdk/client-ec2';
import { ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { STSClient } from '@aws-sdk/client-sts';
import type { ApiCallCounter } from './api-calls.js';

interface Countable {
  middlewareStack: {
    add(
      middleware: (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => Promise<unknown>,
      options: { step: 'finalizeRequest'; name: string; priority: 'low' },
    ): void;
  };
}

/**
 * The SDK clients of one plugin call, one per region and endpoint, every
 * request counted. Credentials come from the SDK's standard chain
 * (environment, shared config/SSO profiles, web identity, container and
 * instance metadata).
 */
export class AwsClients {
  private readonly ec2Clients = new Map<string, EC2Client>();
  private readonly others: { destroy(): void }[] = [];

  constructor(
    readonly counter: ApiCallCounter,
    readonly defaultEndpoint?: string,
  ) {}

  ec2(region: string, endpoint = this.defaultEndpoint): EC2Client {
    const key = `${region} ${endpoint ?? ''}`;
    let client = this.ec2Clients.get(key);
    if (!client) {
      client = new EC2Client({ region, maxAttempts: 4, ...(endpoint ? { endpoint } : {}) });
      this.count(client as unknown as Countable);
      this.ec2Clients.set(key, client);
    }
    return client;
  }

  sts(region: string, endpoint = this.defaultEndpoint): STSClient {
    const client = new STSClient({ region, maxAttempts: 2, ...(endpoint ? { endpoint } : {}) });
    this.count(client as unknown as Countable);
    this.others.push(client);
    return client;
  }

  quotas(region: string, endpoint = this.defaultEndpoint): ServiceQuotasClient {
    const client = new ServiceQuotasClient({ region, maxAttempts: 2, ...(endpoint ? { endpoint } : {}) });
    this.count(client as unknown as Countable);
    this.others.push(client);
    return client;
  }

  destroy(): void {
    for (const client of this.ec2Clients.values()) client.destroy();
    for (const client of this.others) client.destroy();
    this.ec2Clients.clear();
    this.others.length = 0;
  }

  private count(client: Countable): void {
    // Low priority in finalizeRequest runs inside the retry middleware: each attempt is a request.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        this.counter.record(context.commandName?.replace(/Command$/, '') ?? 'unknown');
        return next(args);
      },
      { step: 'finalizeRequest', name: 'netbenchApiCallCounter', priority: 'low' },
    );
  }
}
