import { describe, expect, it } from 'vitest';
import { maskSecrets, maskUrl, urlPassword } from './mask.js';

describe('secrets never shown', () => {
  it('masks the password of a connection string', () => {
    expect(maskUrl('postgres://ana:s3cr%40t@db.internal:5432/bench?sslmode=require')).toBe('postgres://ana:***@db.internal:5432/bench?sslmode=require');
    expect(maskUrl('postgresql://ana@db/bench?password=hunter2&x=1')).toBe('postgresql://ana@db/bench?password=***&x=1');
    expect(maskUrl('postgres://db/bench')).toBe('postgres://db/bench');
  });

  it('finds the password, decoded, and masks it raw and encoded in any text', () => {
    const url = 'postgres://ana:s3cr%40t@db/bench';
    expect(urlPassword(url)).toBe('s3cr@t');
    expect(urlPassword('postgres://db/x?password=pw1')).toBe('pw1');
    expect(urlPassword(undefined)).toBeUndefined();
    expect(maskSecrets('failed for s3cr@t and s3cr%40t', [urlPassword(url), undefined])).toBe('failed for *** and ***');
  });
});
