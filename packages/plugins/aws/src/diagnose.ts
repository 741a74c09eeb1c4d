import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { GetServiceQuotaCommand } from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import type { DiagnosticCheck, HostRequest } from '@netbench/core';
import type { AwsClients } from './clients.js';
import type { AwsHostConfig } from './host-schema.js';
import { instanceTypeFacts, loadPriceTable } from './prices.js';
import { quotaClass } from './quota-class.js';
import { regionOf } from './region.js';
import { configuredRegions, type AwsSettings } from './settings.js';

const message = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}` : String(error));

/**
 * `netbench doctor --cloud aws [SPEC]`: credentials resolve, the identity
 * they belong to, and per region the vCPU quota headroom against what the
 * plan's hosts need. Reads only; creates nothing.
 */
export async function onlineChecks(requests: readonly HostRequest<AwsHostConfig>[], clients: AwsClients, settings: AwsSettings, signal: AbortSignal): Promise<DiagnosticCheck[]> {
  const checks: DiagnosticCheck[] = [];
  const regions = [...new Set(requests.map((r) => regionOf(r.config.zone)))];
  const home = regions[0] ?? configuredRegions(settings)?.[0] ?? 'us-east-1';
  const endpointFor = (region: string) => requests.find((r) => regionOf(r.config.zone) === region)?.config.endpoint ?? settings.endpoint;

  const sts = clients.sts(home, endpointFor(home));
  try {
    const credentials = await sts.config.credentials();
    checks.push({ name: 'credentials', ok: true, detail: `found (access key ${mask(credentials.accessKeyId)})` });
  } catch (error) {
    checks.push({ name: 'credentials', ok: false, detail: message(error), fix: 'aws configure, aws sso login, or set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY' });
    return checks;
  }
  try {
    const identity = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: signal });
    checks.push({ name: 'identity', ok: true, detail: `${identity.Arn} (account ${identity.Account})` });
  } catch (error) {
    checks.push({ name: 'identity', ok: false, detail: message(error), fix: 'the credentials were refused: refresh them (aws sso login) or check the clock' });
    return checks;
  }
  if (requests.length === 0) {
    checks.push({ name: 'quota', ok: true, severity: 'warning', detail: 'no plan given: pass a spec (`netbench doctor --cloud aws spec.yaml`) to check vCPU headroom' });
    return checks;
  }
  const table = loadPriceTable(settings.pricesFile);
  for (const region of regions) {
    const needs = new Map<string, { label: string; vcpus: number; unknown: string[] }>();
    for (const request of requests.filter((r) => regionOf(r.config.zone) === region)) {
      const cls = quotaClass(request.config.machineType);
      const need = needs.get(cls.code) ?? { label: cls.label, vcpus: 0, unknown: [] };
      const vcpus = instanceTypeFacts(table, request.config.machineType).vcpus;
      if (vcpus === undefined) need.unknown.push(request.config.machineType);
      need.vcpus += vcpus ?? 0;
      needs.set(cls.code, need);
    }
    const used = await runningVcpus(clients, region, endpointFor(region), signal).catch((error: unknown) => error as Error);
    for (const [code, need] of needs) {
      checks.push(await quotaCheck(clients, region, endpointFor(region), code, need, used, signal));
    }
  }
  return checks;
}

async function quotaCheck(
  clients: AwsClients,
  region: string,
  endpoint: string | undefined,
  code: string,
  need: { label: string; vcpus: number; unknown: string[] },
  used: Map<string, number> | Error,
  signal: AbortSignal,
): Promise<DiagnosticCheck> {
  const name = `vCPU quota ${region}`;
  const unknown = need.unknown.length ? ` (vCPUs of ${[...new Set(need.unknown)].join(', ')} unknown)` : '';
  const usedText = used instanceof Error ? `running unknown (${message(used)})` : `${used.get(code) ?? 0} running`;
  let limit: number | undefined;
  try {
    const out = await clients.quotas(region, endpoint).send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: code }), { abortSignal: signal });
    limit = out.Quota?.Value;
  } catch (error) {
    return { name, ok: false, severity: 'warning', detail: `plan needs ${need.vcpus} ${need.label} vCPUs${unknown}, ${usedText}; quota unknown (${message(error)})`, fix: 'allow servicequotas:GetServiceQuota, or check the quota in the console' };
  }
  if (limit === undefined) return { name, ok: false, severity: 'warning', detail: `quota ${code} has no value` };
  const running = used instanceof Error ? 0 : used.get(code) ?? 0;
  const headroom = limit - running;
  const ok = headroom >= need.vcpus;
  return {
    name,
    ok,
    detail: `plan needs ${need.vcpus} ${need.label} vCPUs${unknown}; quota ${limit}, ${usedText}, headroom ${headroom}`,
    ...(ok ? {} : { fix: `request ${need.vcpus - headroom} more vCPUs (Service Quotas ${code}) or use fewer/smaller hosts in ${region}` }),
  };
}

/** vCPUs of the account's live instances in a region, by quota class. */
async function runningVcpus(clients: AwsClients, region: string, endpoint: string | undefined, signal: AbortSignal): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  let NextToken: string | undefined;
  do {
    const out = await clients.ec2(region, endpoint).send(new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running'] }], NextToken, MaxResults: 1000 }), { abortSignal: signal });
    for (const instance of (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
      const vcpus = (instance.CpuOptions?.CoreCount ?? 0) * (instance.CpuOptions?.ThreadsPerCore ?? 1);
      const code = quotaClass(instance.InstanceType ?? '').code;
      used.set(code, (used.get(code) ?? 0) + vcpus);
    }
    NextToken = out.NextToken;
  } while (NextToken);
  return used;
}

function mask(accessKeyId: string): string {
  return accessKeyId.length > 8 ? `${accessKeyId.slice(0, 4)}…${accessKeyId.slice(-4)}` : '…';
}
