import type { LedgerResource } from '@netbench/plugin-api';
import { cloudConformance } from '@netbench/plugin-api/testing';
import plugin from '@netbench/plugin-aws';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { motoEnv, startMotoPlus } from './helpers/aws-moto.js';

// The plugin SDK's cloud conformance kit on the AWS plugin: identity, strict
// host schema, and idempotent teardown from the ledger alone in a fresh
// process, against moto (whose endpoint the fresh process inherits from the
// environment). Provisioning with SSH is covered by aws-moto.test.ts.
let moto: Awaited<ReturnType<typeof startMotoPlus>> | undefined;
const saved = { ...process.env };
beforeAll(async () => {
  moto = await startMotoPlus();
  Object.assign(process.env, motoEnv(moto.endpoint));
});
afterAll(async () => {
  for (const key of Object.keys(motoEnv(''))) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  await moto?.stop();
});

const runId = '20000101-000000-gone00';
const gone = (type: string, name: string, extra: Record<string, string> = {}): LedgerResource => ({
  type,
  id: `us-east-1/${name}`,
  data: { region: 'us-east-1', name, runId, ...extra },
});

describe('aws cloud conformance', () => {
  for (const check of cloudConformance(plugin, {
    packageJson: new URL('../packages/plugins/aws/package.json', import.meta.url),
    module: new URL('../packages/plugins/aws/dist/index.js', import.meta.url),
    validBlocks: [
      { zone: 'us-east-1a' },
      { zone: 'eu-west-1b', machineType: 'c5n.large', placement: 'cluster', fallbackZones: ['eu-west-1c'] },
      { zone: 'us-west-2a', subnetId: 'subnet-0abc123', image: 'ami-0123456789abcdef0' },
    ],
    invalidBlocks: [
      {},
      { zone: 'us-east-1' },
      { zone: 'us-east-1a', machineType: 'big' },
      { zone: 'us-east-1a', fallbackZones: ['eu-west-1a'] },
      { zone: 'us-east-1a', placement: 'spread' },
    ],
    requireDescriptions: true,
    // One of each type moto implements (it has no placement groups): by id and, without one, by Name tag.
    goneResources: [
      gone('ec2-instance', `nb-${runId}-client`, { awsId: 'i-0123456789abcdef0' }),
      gone('ec2-instance', `nb-${runId}-server`),
      gone('ec2-security-group', `nb-${runId}-sg`, { awsId: 'sg-0123456789abcdef0' }),
      gone('ec2-route-table-association', `nb-${runId}-rta-us-east-1a`, { awsId: 'rtbassoc-0123456789abcdef0' }),
      gone('ec2-route-table', `nb-${runId}-rt`, { awsId: 'rtb-0123456789abcdef0' }),
      gone('ec2-subnet', `nb-${runId}-subnet-us-east-1a`),
      gone('ec2-internet-gateway', `nb-${runId}-igw`, { awsId: 'igw-0123456789abcdef0', vpcId: 'vpc-0123456789abcdef0' }),
      gone('ec2-vpc', `nb-${runId}-vpc`, { awsId: 'vpc-0123456789abcdef0' }),
      gone('ec2-key-pair', `nb-${runId}-key`),
    ],
  }))
    it(check.name, check.run, 120_000);
});
