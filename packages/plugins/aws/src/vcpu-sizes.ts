import { type _InstanceType, DescribeInstanceTypesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { instanceTypeFacts, type PriceTable } from './prices.js';

/** DescribeInstanceTypes takes at most 100 names per call. */
const BATCH = 100;

/**
 * vCPUs of instance types for the doctor's quota check: the shipped price
 * table first, then EC2 itself (DescribeInstanceTypes, one call per batch of
 * types the table lacks), so a GPU or new type is counted, not skipped.
 */
export class VcpuSizes {
  private readonly asked = new Map<string, number | undefined>();

  constructor(
    private readonly table: PriceTable,
    private readonly ec2: EC2Client,
    private readonly signal: AbortSignal,
  ) {}

  get(type: string): number | undefined {
    return instanceTypeFacts(this.table, type).vcpus ?? this.asked.get(type);
  }

  /** Ask EC2 about the types neither the table nor an earlier call knew; a refusal leaves them unknown. */
  async learn(types: Iterable<string>): Promise<void> {
    const missing = [...new Set(types)].filter((t) => t !== '' && this.get(t) === undefined && !this.asked.has(t));
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = missing.slice(i, i + BATCH);
      try {
        const out = await this.ec2.send(new DescribeInstanceTypesCommand({ InstanceTypes: batch as _InstanceType[] }), { abortSignal: this.signal });
        for (const info of out.InstanceTypes ?? []) {
          if (info.InstanceType && info.VCpuInfo?.DefaultVCpus) this.asked.set(info.InstanceType, info.VCpuInfo.DefaultVCpus);
        }
      } catch {
        // No ec2:DescribeInstanceTypes, or a misspelt type in the batch: those stay unknown and the check says so.
      }
      for (const type of batch) if (!this.asked.has(type)) this.asked.set(type, undefined);
    }
  }
}
