import { describe, expect, it } from 'vitest';
import { familyOf, vcpusOf } from './quotas.js';

describe('azure size names', () => {
  it('give vCPUs and the quota family name Azure lists in usages', () => {
    expect(['Standard_D4s_v5', 'Standard_D4as_v5', 'Standard_F16s_v2', 'Standard_B2s', 'Standard_D2ds_v5'].map((s) => [vcpusOf(s), familyOf(s)])).toEqual([
      [4, 'standardDSv5Family'],
      [4, 'standardDASv5Family'],
      [16, 'standardFSv2Family'],
      [2, 'standardBSFamily'],
      [2, 'standardDDSv5Family'],
    ]);
  });
});
