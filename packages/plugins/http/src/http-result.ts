import type { Generator } from './schema.js';

/** Ways a request can fail, as the generators count them. `status`: a response that is not 2xx (wrk: ≥ 400). */
export type ErrorKind = 'connect' | 'read' | 'write' | 'timeout' | 'status' | 'length' | 'exceptions' | 'other';

/** What every generator's output is read into; the samples are made from this. */
export interface HttpResult {
  readonly generator: Generator;
  readonly generatorVersion?: string;
  /** Responses received, whatever their status. */
  readonly requests: number;
  /** Requests that got a 2xx response (wrk: < 400) without error: the only ones counted as served. */
  readonly successes: number;
  /** Wall seconds the load ran. */
  readonly seconds: number;
  readonly errors: Readonly<Partial<Record<ErrorKind, number>>>;
  /** Milliseconds. */
  readonly latency: { readonly mean?: number; readonly stdev?: number; readonly min?: number; readonly max?: number };
  /** Percentile (0-100) → milliseconds, in increasing percentile order. */
  readonly percentiles: readonly (readonly [number, number])[];
  /** Bytes received per second (body and headers). */
  readonly transferBytesPerSecond?: number;
  /** The rate the generator was asked for (oha -q), requests/s. */
  readonly offeredRate?: number;
  readonly connections?: number;
  /** Figures only one generator gives, as [metric, value, unit, labels?]. */
  readonly extra: readonly ExtraFigure[];
}

export type ExtraFigure = readonly [metric: string, value: number, unit: string, labels?: Readonly<Record<string, string>>];
