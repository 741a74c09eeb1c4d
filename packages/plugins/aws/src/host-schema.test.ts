import { describe, expect, it } from 'vitest';
import { retryWithin } from './connect.js';
import { hostSchema } from './host-schema.js';
import { regionOf } from './region.js';

describe('aws host fields', () => {
  it('defaults to an m5.large with the ubuntu user and derives the region from the zone', () => {
    const host = hostSchema.parse({ zone: 'eu-west-1b' });
    expect(host).toMatchObject({ machineType: 'm5.large', user: 'ubuntu', fallbackZones: [], allowFrom: [], hostKeyWait: 120, connectTimeout: 300 });
    expect(regionOf('eu-west-1b')).toBe('eu-west-1');
    expect(regionOf('us-west-2-lax-1a')).toBe('us-west-2');
    expect(regionOf('us-gov-west-1a')).toBe('us-gov-west-1');
  });

  it('refuses a fallback zone of another region, a non-zone, and both vpcId and subnetId', () => {
    const issues = (value: unknown) => hostSchema.safeParse(value).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ zone: 'us-east-1a', fallbackZones: ['us-east-1b', 'eu-west-1a'] })).toEqual(['fallbackZones.1: must be in us-east-1, like zone']);
    expect(issues({ zone: 'us-east-1' })[0]).toMatch(/^zone: expected an AWS availability zone/);
    expect(issues({ zone: 'us-east-1a', vpcId: 'vpc-0abc', subnetId: 'subnet-0abc' })).toEqual(['vpcId: give vpcId or subnetId, not both (a subnet names its VPC)']);
    expect(issues({ zone: 'us-east-1a', image: 'ubuntu' })[0]).toMatch(/AMI id/);
    expect(issues({ zone: 'us-east-1a', colour: 'red' })[0]).toMatch(/colour/);
    expect(issues({ zone: 'us-east-1a', allowFrom: ['203.0.113.7'] })).toEqual(['allowFrom.0: expected an IPv4 CIDR such as 203.0.113.7/32']);
    expect(hostSchema.parse({ zone: 'us-east-1a', allowFrom: ['203.0.113.7/32'] }).allowFrom).toEqual(['203.0.113.7/32']);
  });

  it('spreads SSH retries over the connect timeout', () => {
    const retry = retryWithin(300);
    expect(retry.initialDelayMs).toBe(2000);
    expect(retry.maxDelayMs).toBe(15_000);
    // 2+4+8+15×19 = 299 s of waiting within 300 s: 23 attempts.
    expect(retry.attempts).toBe(23);
    // 250+500+500+500 = 1.75 s within 2 s.
    expect(retryWithin(2)).toEqual({ attempts: 5, initialDelayMs: 250, maxDelayMs: 500 });
  });
});
