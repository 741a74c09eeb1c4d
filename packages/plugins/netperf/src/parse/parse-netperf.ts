import type { ParseOptions } from '@netbench/plugin-api';
import { ParseError } from '@netbench/plugin-api';
import type { ConfidenceResult, LatencyStats, NetperfResult } from '../result.js';
import { isNetperfTest, isRequestResponse, type NetperfTest, testFromBanner } from '../tests.js';
import { findNetperfFailure } from './netperf-errors.js';
import { parseClassic } from './parse-classic.js';
import { parseHistogram } from './parse-histogram.js';
import { parseOmniCsv, parseOmniKeyval } from './parse-omni.js';
import { parseOmniHuman } from './parse-omni-human.js';
import { isTransactionUnit, toMbitFactor } from './units.js';

const BANNER_CONFIDENCE_RE = /\+\/-([\d.]+)% @ (\d+)% conf\./;
const ACHIEVED_WIDTH_RE = /^!!! Confidence intervals: Throughput\s*:\s*([\d.]+)%/;
const NOT_ACHIEVED_RE = /^!!! Desired confidence was not achieved/;
const NOT_COMPILED_RE = /^(.*) is not compiled in\.\s*$/;

/** A number netperf printed; its "not measured" markers (-1, empty) become undefined. */
function measured(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/**
 * Read one netperf run's output: omni `-o` CSV, omni `-k` key=value, or the
 * classic tables, with or without confidence-interval warnings and the
 * `-v 2` histogram. Throws ParseError (naming source and line) on anything
 * else, including netperf's own error messages.
 */
export function parseNetperfOutput(raw: string, options: ParseOptions = {}): NetperfResult {
  const { source } = options;
  const lines = raw.split(/\r?\n/);
  const bannerIndex = lines.findIndex((line) => testFromBanner(line) !== undefined);
  const banner = bannerIndex >= 0 ? (lines[bannerIndex] as string) : undefined;
  const test = resolveTest(banner, options);

  const omni = parseOmniKeyval(lines) ?? parseOmniCsv(lines) ?? parseOmniHuman(lines, bannerIndex + 1);
  const body = omni ?? (test ? classicOrUndefined(lines, bannerIndex + 1, test, source) : undefined);
  if (!body) {
    const failure = findNetperfFailure(raw);
    if (failure) throw new ParseError(`netperf failed: ${failure.text} (${failure.explanation})`, source, failure.line);
    if (raw.trim() === '') throw new ParseError('empty output', source);
    throw new ParseError(
      test
        ? 'no netperf result found (expected omni -o/-k output or a classic result table)'
        : 'no netperf result found (no omni -o/-k output, and no banner line naming the test for a classic table)',
      source,
    );
  }
  if (!test) {
    throw new ParseError('cannot tell which netperf test produced this output (no banner line): pass the test name', source, body.line);
  }

  const { fields } = body;
  const warnings: string[] = [];
  for (const line of lines) {
    const notCompiled = NOT_COMPILED_RE.exec(line.trim());
    if (notCompiled) warnings.push(`${notCompiled[1]} is not compiled into this netperf: the option was ignored`);
  }
  const rawUnits = fields.THROUGHPUT_UNITS ?? (isRequestResponse(test) ? 'Trans/s' : '10^6bits/s');
  const throughput = throughputOf(test, fields, rawUnits, source, body.line);
  // A banner wrapped over lines (as PKB's logs carry it) has its confidence on a later line.
  const bannerText = banner === undefined ? undefined : lines.slice(bannerIndex, bannerIndex + 3).join(' ');
  const confidence = confidenceOf(fields, bannerText, lines);
  if (confidence?.achieved === false) {
    warnings.push(
      `netperf did not reach the ${confidence.level}% confidence interval of ${confidence.targetWidthPercent ?? '?'}% in ${confidence.iterations ?? 'the allowed'} iterations (width ${confidence.widthPercent ?? '?'}%)`,
    );
  }
  const histogram = parseHistogram(lines, source);

  return {
    test,
    format: omni ? omni.format : 'classic',
    throughput,
    rawThroughputUnits: rawUnits,
    elapsedSeconds: measured(fields.ELAPSED_TIME),
    latency: isRequestResponse(test) ? latencyOf(fields) : {},
    localRetransmissions: measured(fields.LOCAL_TRANSPORT_RETRANS),
    remoteRetransmissions: measured(fields.REMOTE_TRANSPORT_RETRANS),
    mss: measured(fields.TRANSPORT_MSS),
    localCpuPercent: measured(fields.LOCAL_CPU_UTIL),
    remoteCpuPercent: measured(fields.REMOTE_CPU_UTIL),
    confidence,
    histogram: histogram?.buckets,
    fields,
    warnings,
  };
}

function resolveTest(banner: string | undefined, options: ParseOptions): NetperfTest | undefined {
  // The banner says what actually ran; the caller's name is for outputs without one (-P 0).
  const fromBanner = banner ? testFromBanner(banner) : undefined;
  if (fromBanner) return fromBanner;
  if (options.test === undefined) return undefined;
  const name = options.test.toUpperCase();
  if (!isNetperfTest(name)) throw new ParseError(`unknown netperf test ${options.test}`, options.source);
  return name;
}

function classicOrUndefined(lines: readonly string[], from: number, test: NetperfTest, source?: string) {
  const table = parseClassic(lines, from, test, source);
  return table ? { format: 'classic' as const, ...table } : undefined;
}

function throughputOf(test: NetperfTest, fields: Record<string, string>, units: string, source: string | undefined, line: number): number {
  // `-o MIN_LATENCY,…,TRANSACTION_RATE` (as the "What a trip" study selects) has no THROUGHPUT column: the rate is the result.
  const rate = isRequestResponse(test) && fields.THROUGHPUT === undefined ? measured(fields.TRANSACTION_RATE) : undefined;
  if (rate !== undefined) return rate;
  const value = Number(fields.THROUGHPUT);
  if (fields.THROUGHPUT === undefined || fields.THROUGHPUT.trim() === '' || !Number.isFinite(value)) {
    throw new ParseError(`no numeric throughput (got ${JSON.stringify(fields.THROUGHPUT ?? null)})`, source, line);
  }
  if (isRequestResponse(test)) {
    if (isTransactionUnit(units)) return value;
    const rate = measured(fields.TRANSACTION_RATE);
    if (rate !== undefined) return rate;
    throw new ParseError(`${test} reported throughput in ${units}, not transactions`, source, line);
  }
  const factor = toMbitFactor(units);
  if (factor === undefined) throw new ParseError(`unknown throughput unit ${JSON.stringify(units)}`, source, line);
  return value * factor;
}

function latencyOf(fields: Record<string, string>): LatencyStats {
  return {
    min: measured(fields.MIN_LATENCY),
    mean: measured(fields.MEAN_LATENCY),
    max: measured(fields.MAX_LATENCY),
    stddev: measured(fields.STDDEV_LATENCY),
    p50: measured(fields.P50_LATENCY),
    p90: measured(fields.P90_LATENCY),
    p99: measured(fields.P99_LATENCY),
  };
}

function confidenceOf(fields: Record<string, string>, banner: string | undefined, lines: readonly string[]): ConfidenceResult | undefined {
  const fromBanner = banner ? BANNER_CONFIDENCE_RE.exec(banner) : null;
  const level = measured(fields.CONFIDENCE_LEVEL) || (fromBanner ? Number(fromBanner[2]) : 0);
  if (!level) return undefined;
  // The banner prints the half width (+/-2.5% for -I 99,5); the selectors the full width.
  const targetWidthPercent = measured(fields.CONFIDENCE_INTERVAL) ?? (fromBanner ? Number(fromBanner[1]) * 2 : undefined);
  const printedWidth = lines.map((line) => ACHIEVED_WIDTH_RE.exec(line)).find((match) => match);
  const widthPercent = measured(fields.THROUGHPUT_CONFID) ?? (printedWidth ? Number(printedWidth[1]) : undefined);
  const warned = lines.some((line) => NOT_ACHIEVED_RE.test(line));
  const achieved = warned ? false : widthPercent !== undefined && targetWidthPercent !== undefined ? widthPercent <= targetWidthPercent : undefined;
  return { level, targetWidthPercent, widthPercent, iterations: measured(fields.CONFIDENCE_ITERATION), achieved };
}
