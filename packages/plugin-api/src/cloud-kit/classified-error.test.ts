import { describe, expect, it } from 'vitest';
import { CapacityError, isRetryable, QuotaError } from '../errors/index.js';
import { classifiedError } from './classified-error.js';

describe('classifiedError', () => {
  const cloud = new Error('ZONE_RESOURCE_POOL_EXHAUSTED: try later');

  it("makes quota and capacity failures netbench's retryable errors, context first, the cloud's error as cause", () => {
    const quota = classifiedError(cloud, 'create vm a', 'quota') as QuotaError;
    expect(quota).toBeInstanceOf(QuotaError);
    expect(quota.message).toBe('create vm a: ZONE_RESOURCE_POOL_EXHAUSTED: try later');
    expect(quota.cause).toBe(cloud);
    const capacity = classifiedError('no room', 'create vm b', 'capacity') as CapacityError;
    expect(capacity).toBeInstanceOf(CapacityError);
    expect(capacity.message).toBe('create vm b: no room');
    expect(isRetryable(quota) && isRetryable(capacity)).toBe(true);
  });

  it('leaves every other kind as it was', () => {
    for (const kind of ['not-found', 'other', 'in-use']) expect(classifiedError(cloud, 'x', kind)).toBe(cloud);
  });
});
