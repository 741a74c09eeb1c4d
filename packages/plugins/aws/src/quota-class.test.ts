import { describe, expect, it } from 'vitest';
import { quotaClass } from './quota-class.js';

// Service Quotas codes of the EC2 on-demand vCPU quotas (AWS's "On-Demand
// Instance quotas" table; the codes are not in botocore's model).
describe('quotaClass', () => {
  it.each([
    ['m7i.large', 'L-1216C47A'],
    ['c7gn.16xlarge', 'L-1216C47A'],
    ['h1.2xlarge', 'L-1216C47A'],
    ['g5.xlarge', 'L-DB2E81BA'],
    ['gr6.4xlarge', 'L-DB2E81BA'],
    ['vt1.3xlarge', 'L-DB2E81BA'],
    ['u-6tb1.metal', 'L-43DA4232'],
    ['u7i-12tb.224xlarge', 'L-43DA4232'],
    ['hpc7g.16xlarge', 'L-F7808C92'],
    ['hpc6a.48xlarge', 'L-F7808C92'],
    ['p5.48xlarge', 'L-417A185B'],
    ['x2idn.16xlarge', 'L-7295265B'],
    ['trn1.2xlarge', 'L-2C3B7624'],
  ])('%s counts against %s', (type, code) => {
    expect(quotaClass(type).code).toBe(code);
  });
});
