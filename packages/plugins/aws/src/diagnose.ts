import { DescribeInstancesCommand, type EC2Client, type Instance } from '@aws-sdk/client-ec2';
import { GetServiceQuotaCommand } from '@aws-sdk/client-service-quotas';
import { GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import type { DiagnosticCheck, HostRequest } from '@netbench/plugin-api';
import type { AwsClients } from './clients.js';
import type { AwsHostConfig } from './host-schema.js';
import { loadPriceTable } from './prices.js';
import { quotaClass } from './quota-class.js';
import { regionOf } from './region.js';
import { type AwsSettings, configuredRegions } from './settings.js';
import { VcpuSizes } from './vcpu-sizes.js';

const message = (error: unknown) => (error instanceof Error ? `${error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}` : String(error));

/**
 * `netbench doctor --cloud aws [SPEC]`: credentials resolve, the identity
 * they belong to, and per region and quota class the vCPU headroom (Service
 * Quotas value minus live instances' vCPUs) against what the plan's hosts
 * need (vCPUs from the price table, else DescribeInstanceTypes). Reads only;
 * creates nothing.
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
    const endpoint = endpointFor(region);
    const inRegion = requests.filter((r) => regionOf(r.config.zone) === region);
    const sizes = new VcpuSizes(table, clients.ec2(region, endpoint), signal);
    await sizes.learn(inRegion.map((r) => r.config.machineType));
    const needs = new Map<string, Need>();
    for (const request of inRegion) {
      const cls = quotaClass(request.config.machineType);
      const need = needs.get(cls.code) ?? { label: cls.label, vcpus: 0, unknown: [] };
      const vcpus = sizes.get(request.config.machineType);
      if (vcpus === undefined) need.unknown.push(request.config.machineType);
      need.vcpus += vcpus ?? 0;
      needs.set(cls.code, need);
    }
    const used = await runningVcpus(clients.ec2(region, endpoint), sizes, signal).catch((error: unknown) => error as Error);
    for (const [code, need] of needs) {
      // One check per quota the plan touches; the code tells two of a region apart.
      const name = needs.size > 1 ? `vCPU quota ${region} (${code})` : `vCPU quota ${region}`;
      checks.push(await quotaCheck(clients, region, endpoint, name, code, need, used, signal));
    }
  }
  return checks;
}

interface Need {
  readonly label: string;
  vcpus: number;
  readonly unknown: string[];
}

async function quotaCheck(
  clients: AwsClients,
  region: string,
  endpoint: string | undefined,
  name: string,
  code: string,
  need: Need,
  used: Map<string, number> | Error,
  signal: AbortSignal,
): Promise<DiagnosticCheck> {
  const unknownTypes = [...new Set(need.unknown)].join(', ');
  const unknown = unknownTypes ? ` (vCPUs of ${unknownTypes} unknown)` : '';
  const usedText = used instanceof Error ? `running unknown (${message(used)})` : `${used.get(code) ?? 0} running`;
  let limit: number | undefined;
  try {
    const out = await clients.quotas(region, endpoint).send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: code }), { abortSignal: signal });
    limit = out.Quota?.Value;
  } catch (error) {
    return {
      name,
      ok: false,
      severity: 'warning',
      detail: `plan needs ${need.vcpus} ${need.label} vCPUs${unknown}, ${usedText}; quota unknown (${message(error)})`,
      fix: 'allow servicequotas:GetServiceQuota, or check the quota in the console',
    };
  }
  if (limit === undefined) return { name, ok: false, severity: 'warning', detail: `quota ${code} has no value` };
  const running = used instanceof Error ? 0 : (used.get(code) ?? 0);
  const headroom = limit - running;
  const detail = `plan needs ${need.vcpus} ${need.label} vCPUs${unknown}; quota ${limit}, ${usedText}, headroom ${headroom}`;
  if (headroom < need.vcpus) {
    return { name, ok: false, detail, fix: `request ${need.vcpus - headroom} more vCPUs (Service Quotas ${code}) or use fewer/smaller hosts in ${region}` };
  }
  // What is known fits, but some hosts were not counted: say so rather than pass.
  if (unknownTypes)
    return {
      name,
      ok: false,
      severity: 'warning',
      detail,
      fix: `check that ${unknownTypes} fit in the headroom of ${headroom} vCPUs (ec2:DescribeInstanceTypes was refused or does not know them)`,
    };
  return { name, ok: true, detail };
}

/**
 * vCPUs of the account's live instances in a region, by quota class: each
 * instance's CPU options, else its type's size (an emulator may omit them).
 */
async function runningVcpus(ec2: EC2Client, sizes: VcpuSizes, signal: AbortSignal): Promise<Map<string, number>> {
  const instances: Instance[] = [];
  let NextToken: string | undefined;
  do {
    const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running'] }], NextToken, MaxResults: 1000 }), {
      abortSignal: signal,
    });
    instances.push(...(out.Reservations ?? []).flatMap((r) => r.Instances ?? []));
    NextToken = out.NextToken;
  } while (NextToken);
  const fromOptions = (i: Instance) => (i.CpuOptions?.CoreCount ? i.CpuOptions.CoreCount * (i.CpuOptions.ThreadsPerCore ?? 1) : undefined);
  await sizes.learn(instances.filter((i) => fromOptions(i) === undefined).map((i) => i.InstanceType ?? ''));
  const used = new Map<string, number>();
  for (const instance of instances) {
    const vcpus = fromOptions(instance) ?? sizes.get(instance.InstanceType ?? '') ?? 0;
    const code = quotaClass(instance.InstanceType ?? '').code;
    used.set(code, (used.get(code) ?? 0) + vcpus);
  }
  return used;
}

function mask(accessKeyId: string): string {
  return accessKeyId.length > 8 ? `${accessKeyId.slice(0, 4)}…${accessKeyId.slice(-4)}` : '…';
}
