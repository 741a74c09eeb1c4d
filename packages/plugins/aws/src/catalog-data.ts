/**
 * The regions and instance types the AWS plugin offers in pickers, as AWS
 * listed them by the date below (the price table's date). Curated, not
 * complete: any other zone or type is still accepted by the host schema.
 */
export const CATALOG_DATE = '2025-06-01';

/**
 * Commercial regions and their zone names. Zone letters are mapped per
 * account: an account sees some of these letters (us-west-1: two of a, b, c),
 * and opt-in regions (af-south-1, ap-east-1, me-south-1, ...) need enabling.
 */
export const REGION_ZONES: Readonly<Record<string, string>> = {
  'us-east-1': 'abcdef',
  'us-east-2': 'abc',
  'us-west-1': 'abc',
  'us-west-2': 'abcd',
  'ca-central-1': 'abd',
  'ca-west-1': 'abc',
  'mx-central-1': 'abc',
  'sa-east-1': 'abc',
  'eu-west-1': 'abc',
  'eu-west-2': 'abc',
  'eu-west-3': 'abc',
  'eu-central-1': 'abc',
  'eu-central-2': 'abc',
  'eu-north-1': 'abc',
  'eu-south-1': 'abc',
  'eu-south-2': 'abc',
  'il-central-1': 'abc',
  'me-south-1': 'abc',
  'me-central-1': 'abc',
  'af-south-1': 'abc',
  'ap-east-1': 'abc',
  'ap-south-1': 'abc',
  'ap-south-2': 'abc',
  'ap-northeast-1': 'acd',
  'ap-northeast-2': 'abcd',
  'ap-northeast-3': 'abc',
  'ap-southeast-1': 'abc',
  'ap-southeast-2': 'abc',
  'ap-southeast-3': 'abc',
  'ap-southeast-4': 'abc',
  'ap-southeast-5': 'abc',
  'ap-southeast-7': 'abc',
};

/** One instance family: its sizes and memory per vCPU (`memoryGib` lists sizes that break the ratio). */
export interface SeriesSpec {
  readonly series: string;
  readonly family: string;
  readonly arch?: 'arm64';
  readonly gibPerVcpu?: number;
  readonly sizes: readonly string[];
  /** size → [vCPUs, GiB] where the size name or the ratio does not give them. */
  readonly exact?: Readonly<Record<string, readonly [number, number]>>;
}

const STANDARD = ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge'];
const TO_32 = [...STANDARD, '32xlarge'];
const TO_48 = [...STANDARD, '48xlarge'];
const GRAVITON = ['medium', 'large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge'];

/** Families useful for network benchmarks: general purpose, compute, the `n` network-optimized ones, a little memory. */
export const SERIES: readonly SeriesSpec[] = [
  {
    series: 't3',
    family: 'burstable',
    sizes: ['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge'],
    exact: { nano: [2, 0.5], micro: [2, 1], small: [2, 2], medium: [2, 4], large: [2, 8], xlarge: [4, 16], '2xlarge': [8, 32] },
  },
  {
    series: 't4g',
    family: 'burstable',
    arch: 'arm64',
    sizes: ['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge'],
    exact: { nano: [2, 0.5], micro: [2, 1], small: [2, 2], medium: [2, 4], large: [2, 8], xlarge: [4, 16], '2xlarge': [8, 32] },
  },
  { series: 'm4', family: 'general purpose', gibPerVcpu: 4, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '10xlarge', '16xlarge'] },
  { series: 'm5', family: 'general purpose', gibPerVcpu: 4, sizes: STANDARD },
  { series: 'm6i', family: 'general purpose', gibPerVcpu: 4, sizes: TO_32 },
  { series: 'm6a', family: 'general purpose', gibPerVcpu: 4, sizes: [...TO_32, '48xlarge'] },
  { series: 'm7i', family: 'general purpose', gibPerVcpu: 4, sizes: TO_48 },
  { series: 'm7a', family: 'general purpose', gibPerVcpu: 4, sizes: [...TO_32, '48xlarge'] },
  { series: 'm6g', family: 'general purpose', arch: 'arm64', gibPerVcpu: 4, sizes: GRAVITON },
  { series: 'm7g', family: 'general purpose', arch: 'arm64', gibPerVcpu: 4, sizes: GRAVITON },
  { series: 'm8g', family: 'general purpose', arch: 'arm64', gibPerVcpu: 4, sizes: [...GRAVITON, '24xlarge', '48xlarge'] },
  { series: 'm5n', family: 'network optimized', gibPerVcpu: 4, sizes: STANDARD },
  { series: 'm6in', family: 'network optimized', gibPerVcpu: 4, sizes: TO_32 },
  { series: 'c5', family: 'compute optimized', gibPerVcpu: 2, sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '12xlarge', '18xlarge', '24xlarge'] },
  { series: 'c6i', family: 'compute optimized', gibPerVcpu: 2, sizes: TO_32 },
  { series: 'c6a', family: 'compute optimized', gibPerVcpu: 2, sizes: [...TO_32, '48xlarge'] },
  { series: 'c7i', family: 'compute optimized', gibPerVcpu: 2, sizes: TO_48 },
  { series: 'c7a', family: 'compute optimized', gibPerVcpu: 2, sizes: [...TO_32, '48xlarge'] },
  { series: 'c6g', family: 'compute optimized', arch: 'arm64', gibPerVcpu: 2, sizes: GRAVITON },
  { series: 'c7g', family: 'compute optimized', arch: 'arm64', gibPerVcpu: 2, sizes: GRAVITON },
  { series: 'c8g', family: 'compute optimized', arch: 'arm64', gibPerVcpu: 2, sizes: [...GRAVITON, '24xlarge', '48xlarge'] },
  {
    series: 'c5n',
    family: 'network optimized',
    sizes: ['large', 'xlarge', '2xlarge', '4xlarge', '9xlarge', '18xlarge'],
    exact: { large: [2, 5.25], xlarge: [4, 10.5], '2xlarge': [8, 21], '4xlarge': [16, 42], '9xlarge': [36, 96], '18xlarge': [72, 192] },
  },
  { series: 'c6in', family: 'network optimized', gibPerVcpu: 2, sizes: TO_32 },
  { series: 'c7gn', family: 'network optimized', arch: 'arm64', gibPerVcpu: 2, sizes: GRAVITON },
  { series: 'r5', family: 'memory optimized', gibPerVcpu: 8, sizes: STANDARD },
  { series: 'r6i', family: 'memory optimized', gibPerVcpu: 8, sizes: TO_32 },
  { series: 'r7i', family: 'memory optimized', gibPerVcpu: 8, sizes: TO_48 },
];
