import { tmpdir } from 'node:os';
import { EC2Client, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import type { DiagnosticCheck, Logger } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsErrorCode } from './aws-errors.js';
import { awsPlugin } from './aws-plugin.js';
import { hostSchema } from './host-schema.js';
import { type MotoPlus, startMotoPlus } from './test-support/moto-plus.js';
import { motoEnv } from './test-support/moto-server.js';

// `netbench doctor --cloud aws SPEC`'s vCPU headroom against moto + the
// stand-in's Service Quotas for ec2 (test-support/moto-plus.ts). Loopback only.
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
const saved = Object.fromEntries(Object.keys(CREDENTIALS).map((k) => [k, process.env[k]]));
const STANDARD = 'Standard (A, C, D, H, I, M, R, T, Z) instances';
const AMI = 'ami-0a1b2c3d4e5f60002';

let plus: MotoPlus;
let env: Record<string, string>;
const credentials = { accessKeyId: 'testing', secretAccessKey: 'testing' };
const quiet: Logger = { debug() {}, info() {}, warn() {} };

beforeAll(async () => {
  Object.assign(process.env, CREDENTIALS);
  plus = await startMotoPlus();
  env = motoEnv(plus.endpoint);
});
afterAll(async () => {
  await plus?.stop();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** The doctor's online checks for a plan of `hosts` (id -> zone, machine type). */
async function doctor(hosts: Record<string, [zone: string, machineType: string]>): Promise<Map<string, DiagnosticCheck>> {
  const requests = Object.entries(hosts).map(([id, [zone, machineType]]) => ({ id, name: id, cloud: 'aws', config: hostSchema.parse({ zone, machineType }) }));
  const checks = await awsPlugin({ env }).diagnose!({ runId: 'doctor', runDir: tmpdir(), signal: new AbortController().signal, log: quiet }, { online: true, requests });
  return new Map(checks.map((c) => [c.name, c]));
}

describe('moto-plus: Service Quotas for ec2', () => {
  it('answers GetServiceQuota for ec2 with the set value, leaves other services to moto, and can deny access', async () => {
    const client = new ServiceQuotasClient({ region: 'eu-west-1', endpoint: plus.endpoint, credentials, maxAttempts: 1 });
    try {
      plus.quotas.set('L-1216C47A', 96, 'eu-west-1');
      const out = await client.send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' }));
      expect(out.Quota).toMatchObject({
        ServiceCode: 'ec2',
        QuotaCode: 'L-1216C47A',
        Value: 96,
        QuotaArn: 'arn:aws:servicequotas:eu-west-1:123456789012:ec2/L-1216C47A',
        QuotaName: `Running On-Demand ${STANDARD}`,
      });
      expect(out.Quota?.UsageMetric?.MetricDimensions).toMatchObject({ Class: 'Standard/OnDemand', Resource: 'vCPU' });
      // moto's own Service Quotas (vpc) still answer.
      expect((await client.send(new GetServiceQuotaCommand({ ServiceCode: 'vpc', QuotaCode: 'L-F678F1CE' }))).Quota?.Value).toBe(5);
      const missing = await client.send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: 'L-00000000' })).catch((e: unknown) => e);
      expect(awsErrorCode(missing)).toBe('NoSuchResourceException');
      plus.quotas.accessDenied = true;
      const denied = await client.send(new GetServiceQuotaCommand({ ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' })).catch((e: unknown) => e);
      expect(awsErrorCode(denied)).toBe('AccessDeniedException');
      expect((denied as Error).message).toMatch(/not authorized to perform: servicequotas:GetServiceQuota/);
    } finally {
      plus.quotas.accessDenied = false;
      client.destroy();
    }
  });
});

describe('doctor --cloud aws: vCPU quota headroom', () => {
  it('a plan needing more vCPUs than the quota fails with how many more to request', async () => {
    plus.quotas.set('L-1216C47A', 8);
    const checks = await doctor({ a: ['us-east-1a', 'm5.xlarge'], b: ['us-east-1a', 'm5.xlarge'], c: ['us-east-1b', 'm5.xlarge'] });
    expect(checks.get('identity')?.ok).toBe(true);
    expect(checks.get('vCPU quota us-east-1')).toEqual({
      name: 'vCPU quota us-east-1',
      ok: false,
      detail: `plan needs 12 ${STANDARD} vCPUs; quota 8, 0 running, headroom 8`,
      fix: 'request 4 more vCPUs (Service Quotas L-1216C47A) or use fewer/smaller hosts in us-east-1',
    });
  });

  it('within the quota passes; vCPUs already running count against it', async () => {
    plus.quotas.set('L-1216C47A', 8);
    expect(await doctor({ a: ['us-east-1a', 'm5.large'], b: ['us-east-1b', 'm5.large'] }).then((c) => c.get('vCPU quota us-east-1'))).toEqual({
      name: 'vCPU quota us-east-1',
      ok: true,
      detail: `plan needs 4 ${STANDARD} vCPUs; quota 8, 0 running, headroom 8`,
    });

    // Another machine of the account already runs 2 × m5.large (4 vCPUs): the same plan of 8 no longer fits.
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: plus.endpoint, credentials, maxAttempts: 1 });
    const run = await ec2.send(new RunInstancesCommand({ ImageId: AMI, InstanceType: 'm5.large', MinCount: 2, MaxCount: 2 }));
    try {
      const check = (await doctor({ a: ['us-east-1a', 'm5.xlarge'], b: ['us-east-1a', 'm5.xlarge'] })).get('vCPU quota us-east-1');
      expect(check).toMatchObject({
        ok: false,
        detail: `plan needs 8 ${STANDARD} vCPUs; quota 8, 4 running, headroom 4`,
        fix: 'request 4 more vCPUs (Service Quotas L-1216C47A) or use fewer/smaller hosts in us-east-1',
      });
    } finally {
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: run.Instances!.map((i) => i.InstanceId!) }));
      ec2.destroy();
    }
  });

  it('checks each region, and each instance class against its own quota', async () => {
    plus.quotas.set('L-1216C47A', 8);
    plus.quotas.set('L-1216C47A', 2, 'eu-west-1');
    plus.quotas.set('L-DB2E81BA', 0);
    const checks = await doctor({ a: ['us-east-1a', 'm5.large'], gpu: ['us-east-1a', 'g4dn.xlarge'], west: ['eu-west-1a', 'm5.xlarge'] });
    const names = [...checks.keys()].filter((n) => n.startsWith('vCPU quota'));
    expect(names).toEqual(['vCPU quota us-east-1 (L-1216C47A)', 'vCPU quota us-east-1 (L-DB2E81BA)', 'vCPU quota eu-west-1']);
    expect(checks.get('vCPU quota us-east-1 (L-1216C47A)')?.ok).toBe(true);
    expect(checks.get('vCPU quota us-east-1 (L-DB2E81BA)')).toMatchObject({
      ok: false,
      detail: 'plan needs 4 G and VT instances vCPUs; quota 0, 0 running, headroom 0',
      fix: 'request 4 more vCPUs (Service Quotas L-DB2E81BA) or use fewer/smaller hosts in us-east-1',
    });
    expect(checks.get('vCPU quota eu-west-1')).toMatchObject({ ok: false, fix: 'request 2 more vCPUs (Service Quotas L-1216C47A) or use fewer/smaller hosts in eu-west-1' });
  });

  it('a type neither the price table nor EC2 knows is not counted silently: the check warns', async () => {
    plus.quotas.set('L-1216C47A', 8);
    const check = (await doctor({ a: ['us-east-1a', 'm5.large'], b: ['us-east-1a', 'm99.large'] })).get('vCPU quota us-east-1');
    expect(check).toMatchObject({
      ok: false,
      severity: 'warning',
      detail: `plan needs 2 ${STANDARD} vCPUs (vCPUs of m99.large unknown); quota 8, 0 running, headroom 8`,
    });
    expect(check?.fix).toMatch(/^check that m99\.large fit in the headroom of 8 vCPUs/);
  });

  it('without servicequotas:GetServiceQuota the need is still counted and the check is a warning', async () => {
    plus.quotas.accessDenied = true;
    try {
      const check = (await doctor({ a: ['us-east-1a', 'm5.large'] })).get('vCPU quota us-east-1');
      expect(check).toMatchObject({ ok: false, severity: 'warning', fix: 'allow servicequotas:GetServiceQuota, or check the quota in the console' });
      expect(check?.detail).toMatch(
        new RegExp(
          `^plan needs 2 ${STANDARD.replace(/[()]/g, '\\$&')} vCPUs, 0 running; quota unknown \\(AccessDeniedException: User: arn:aws:iam::123456789012:user/netbench-test is not authorized to perform: servicequotas:GetServiceQuota`,
        ),
      );
    } finally {
      plus.quotas.accessDenied = false;
    }
  });
});
