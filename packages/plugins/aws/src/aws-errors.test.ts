import { createServer, type Server } from 'node:http';
import { DeleteVpcCommand, EC2Client, EC2ServiceException, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { CapacityError, isRetryable, QuotaError } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsErrorCode, isDependencyViolation, isNotFound, mapAwsError } from './aws-errors.js';
import { inFirstZoneThatFits } from './fallback.js';

// EC2's error body, as its query protocol sends it; the SDK's own deserializer turns it into an error.
const errorXml = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>5d3f1c0e-0000-4000-8000-000000000000</RequestID></Response>`;

let server: Server;
let endpoint: string;
let reply: { status: number; code: string; message: string };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(reply.status, { 'content-type': 'text/xml;charset=UTF-8' });
      res.end(errorXml(reply.code, reply.message));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function sdkError(status: number, code: string, message: string, command: 'run' | 'delete' = 'run'): Promise<unknown> {
  reply = { status, code, message };
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint, maxAttempts: 1, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
  try {
    await (command === 'run'
      ? ec2.send(new RunInstancesCommand({ ImageId: 'ami-0a1b2c3d4e5f60002', MinCount: 1, MaxCount: 1 }))
      : ec2.send(new DeleteVpcCommand({ VpcId: 'vpc-0123456789abcdef0' })));
  } catch (error) {
    return error;
  } finally {
    ec2.destroy();
  }
  throw new Error('expected the call to fail');
}

describe('AWS error mapping (errors as the SDK deserializes them)', () => {
  it('VcpuLimitExceeded and InstanceLimitExceeded are quota errors, retryable', async () => {
    for (const code of ['VcpuLimitExceeded', 'InstanceLimitExceeded']) {
      const error = await sdkError(400, code, 'You have requested more vCPU capacity than your current vCPU limit of 32 allows');
      expect(error).toBeInstanceOf(EC2ServiceException);
      expect(awsErrorCode(error)).toBe(code);
      const mapped = mapAwsError(error, 'us-east-1a');
      expect(mapped).toBeInstanceOf(QuotaError);
      expect(isRetryable(mapped)).toBe(true);
      expect((mapped as Error).message).toMatch(new RegExp(`quota exceeded in us-east-1a \\(${code}\\)`));
    }
  });

  it('InsufficientInstanceCapacity (a 500) and Unsupported are capacity errors', async () => {
    const error = await sdkError(500, 'InsufficientInstanceCapacity', 'We currently do not have sufficient m5.large capacity in the Availability Zone you requested (us-east-1a).');
    expect(mapAwsError(error, 'us-east-1a')).toBeInstanceOf(CapacityError);
    const unsupported = await sdkError(400, 'Unsupported', 'Your requested instance type (c7gn.large) is not supported in your requested Availability Zone (us-east-1e).');
    expect(mapAwsError(unsupported, 'us-east-1e')).toBeInstanceOf(CapacityError);
  });

  it('throttling is not a quota; other errors pass through unchanged', async () => {
    const throttled = await sdkError(503, 'RequestLimitExceeded', 'Request limit exceeded.');
    expect(mapAwsError(throttled, 'x')).toBe(throttled);
    const invalid = await sdkError(400, 'InvalidAMIID.Malformed', 'Invalid id: "ami-x"');
    expect(mapAwsError(invalid, 'x')).toBe(invalid);
    expect(isNotFound(invalid)).toBe(false);
  });

  it('NotFound on delete means already gone; DependencyViolation means retry later', async () => {
    expect(isNotFound(await sdkError(400, 'InvalidVpcID.NotFound', "The vpc ID 'vpc-0123456789abcdef0' does not exist", 'delete'))).toBe(true);
    expect(isNotFound(await sdkError(400, 'InvalidPlacementGroup.Unknown', 'The Placement Group nb-x is unknown.', 'delete'))).toBe(true);
    const busy = await sdkError(400, 'DependencyViolation', "The vpc 'vpc-0123456789abcdef0' has dependencies and cannot be deleted.", 'delete');
    expect(isDependencyViolation(busy)).toBe(true);
    expect(isNotFound(busy)).toBe(false);
  });

  it('an error built from the SDK class directly maps the same way', () => {
    const error = new EC2ServiceException({ name: 'VcpuLimitExceeded', $fault: 'client', $metadata: {}, message: 'limit' });
    expect(mapAwsError(error, 'eu-west-1b')).toBeInstanceOf(QuotaError);
  });
});

describe('fallback zones', () => {
  it('moves to the next zone on capacity or quota errors only, in order', async () => {
    const tried: string[] = [];
    const capacity = await sdkError(500, 'InsufficientInstanceCapacity', 'no m5.large capacity');
    const warnings: string[] = [];
    const result = await inFirstZoneThatFits(
      ['us-east-1a', 'us-east-1b', 'us-east-1c'],
      async (zone) => {
        tried.push(zone);
        if (zone === 'us-east-1a') throw mapAwsError(capacity, zone);
        return `i-in-${zone}`;
      },
      { debug() {}, info() {}, warn: (m) => warnings.push(m) },
    );
    expect(result).toEqual({ value: 'i-in-us-east-1b', zone: 'us-east-1b' });
    expect(tried).toEqual(['us-east-1a', 'us-east-1b']);
    expect(warnings[0]).toMatch(/no capacity in us-east-1a .*trying us-east-1b/);

    const other = new Error('InvalidParameterValue');
    await expect(
      inFirstZoneThatFits(['a', 'b'], async () => {
        throw other;
      }),
    ).rejects.toBe(other);
    await expect(
      inFirstZoneThatFits(['us-east-1a'], async (zone) => {
        throw mapAwsError(capacity, zone);
      }),
    ).rejects.toBeInstanceOf(CapacityError);
  });
});
