import { createServer } from 'node:net';
import {
  DescribeInstancesCommand,
  DescribeInternetGatewaysCommand,
  DescribeKeyPairsCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';

// moto behind the stand-in that checks every request against botocore's models.
export { type MotoPlus, startMotoPlus } from '../../packages/plugins/aws/src/test-support/moto-plus.js';
export { motoEnv } from '../../packages/plugins/aws/src/test-support/moto-server.js';

/** A loopback port nothing listens on: SSH to it is refused at once (moto's instances are not machines). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Everything moto still holds that carries the run's tag (instances: only those not terminated). */
export async function motoLeftovers(endpoint: string, runId: string, region = 'us-east-1'): Promise<Record<string, string[]>> {
  const ec2 = new EC2Client({ region, endpoint, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  const Filters = [{ Name: 'tag:netbench:run-id', Values: [runId] }];
  try {
    const [instances, vpcs, subnets, groups, gateways, tables, keys] = await Promise.all([
      ec2.send(new DescribeInstancesCommand({ Filters: [...Filters, { Name: 'instance-state-name', Values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] }] })),
      ec2.send(new DescribeVpcsCommand({ Filters })),
      ec2.send(new DescribeSubnetsCommand({ Filters })),
      ec2.send(new DescribeSecurityGroupsCommand({ Filters })),
      ec2.send(new DescribeInternetGatewaysCommand({ Filters })),
      ec2.send(new DescribeRouteTablesCommand({ Filters })),
      ec2.send(new DescribeKeyPairsCommand({ Filters })),
    ]);
    return {
      instances: (instances.Reservations ?? []).flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId!),
      vpcs: (vpcs.Vpcs ?? []).map((v) => v.VpcId!),
      subnets: (subnets.Subnets ?? []).map((s) => s.SubnetId!),
      securityGroups: (groups.SecurityGroups ?? []).map((g) => g.GroupId!),
      internetGateways: (gateways.InternetGateways ?? []).map((g) => g.InternetGatewayId!),
      routeTables: (tables.RouteTables ?? []).map((t) => t.RouteTableId!),
      keyPairs: (keys.KeyPairs ?? []).map((k) => k.KeyName!),
    };
  } finally {
    ec2.destroy();
  }
}

export function nothingLeft(leftovers: Record<string, string[]>): boolean {
  return Object.values(leftovers).every((ids) => ids.length === 0);
}
