import type { Generator } from './schema.js';

const AB_RE = /^This is ApacheBench, Version |^Benchmarking \S+ \(be patient\)|^Document Path:\s/m;
const WRK_RE = /^Running \d+(?:\.\d+)?[a-z]+ test @ \S+/m;
const OHA_RE = /"(?:latencyPercentiles|statusCodeDistribution)"\s*:|"summary"\s*:\s*\{\s*"successRate"/;

/** Which generator wrote this output: ab's report, wrk's report or oha's JSON; undefined for anything else. */
export function whichGenerator(head: string): Generator | undefined {
  if (head.trimStart().startsWith('{')) return OHA_RE.test(head) ? 'oha' : undefined;
  if (AB_RE.test(head)) return 'ab';
  if (WRK_RE.test(head)) return 'wrk';
  return undefined;
}

/** Whether a file's head is ab, wrk or oha output, for `netbench import --tool auto`. */
export function sniffHttp(head: string): boolean {
  return whichGenerator(head) !== undefined;
}
