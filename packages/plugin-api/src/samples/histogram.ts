import { createRequire } from 'node:module';
import type * as Hdr from 'hdr-histogram-js';
import type { EncodedHistogram } from './types.js';

// hdr-histogram-js takes ~150 ms to load (it carries a WebAssembly build);
// load it on first use so commands that never touch a histogram start faster.
let loaded: typeof Hdr | undefined;
const hdr = (): typeof Hdr => (loaded ??= createRequire(import.meta.url)('hdr-histogram-js') as typeof Hdr);

type Unit = EncodedHistogram['unit'];

/**
 * A latency histogram backed by HdrHistogram: bounded memory (3 significant
 * digits at any magnitude), mergeable, and any percentile can be asked later.
 * Values are integers in `unit`; fractions are rounded.
 */
export class LatencyHistogram {
  private constructor(
    private readonly histogram: Hdr.Histogram,
    readonly unit: Unit,
  ) {}

  static create(unit: Unit = 'us'): LatencyHistogram {
    return new LatencyHistogram(hdr().build({ bitBucketSize: 'packed', numberOfSignificantValueDigits: 3 }), unit);
  }

  static decode(encoded: EncodedHistogram): LatencyHistogram {
    return new LatencyHistogram(hdr().decodeFromCompressedBase64(encoded.data, 'packed'), encoded.unit);
  }

  /** Merge histograms (e.g. streams of one trial, repetitions, runs). Units must match. */
  static merge(parts: readonly EncodedHistogram[]): LatencyHistogram {
    const first = parts[0];
    const merged = LatencyHistogram.create(first?.unit ?? 'us');
    for (const part of parts) merged.add(LatencyHistogram.decode(part));
    return merged;
  }

  record(value: number, count = 1): void {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`cannot record latency ${value}`);
    this.histogram.recordValueWithCount(Math.round(value), count);
  }

  add(other: LatencyHistogram): void {
    if (other.unit !== this.unit) throw new Error(`cannot merge histograms in ${other.unit} into ${this.unit}`);
    this.histogram.add(other.histogram);
  }

  get count(): number {
    return this.histogram.totalCount;
  }
  get min(): number {
    return this.histogram.totalCount === 0 ? 0 : this.histogram.minNonZeroValue;
  }
  get max(): number {
    return this.histogram.maxValue;
  }
  get mean(): number {
    return this.histogram.mean;
  }
  get stddev(): number {
    return this.histogram.stdDeviation;
  }

  /** Value at a percentile in 0..100 (e.g. 99.9). */
  percentile(p: number): number {
    return this.histogram.getValueAtPercentile(p);
  }

  encode(): EncodedHistogram {
    return { encoding: 'hdr-base64', unit: this.unit, data: hdr().encodeIntoCompressedBase64(this.histogram), count: this.count };
  }
}
