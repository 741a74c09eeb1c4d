import { assertHostAddress } from '@netbench/plugin-api/tool-kit';
import { RR_SELECTORS, STREAM_SELECTORS, TCP_SELECTORS } from './selectors.js';
import { isRequestResponse, type NetperfTest } from './tests.js';
import type { TrialParams } from './trials.js';

/** A netserver's control port and the data port its tests use (`-P ,port`). */
export interface PortPair {
  readonly control: number;
  readonly data: number;
}

/**
 * The argv of one netperf process (one stream), as PKB runs it:
 * `netperf -p CTRL -j [-v 2] -t TEST -H TARGET -l LEN [-I lvl,w -i max,min] [-T cpu,cpu] -- -P ,DATA ... -o SELECTORS`.
 * Every value is its own argv element; nothing goes through a shell.
 */
export function netperfArgv(test: NetperfTest, params: TrialParams, target: string, ports: PortPair): string[] {
  const rr = isRequestResponse(test);
  // netperf's `--` starts the test-specific options, so it cannot end options: -H's value is validated instead
  // (an address, not `host,family` or an option).
  const argv = ['netperf', '-p', String(ports.control), '-t', test, '-H', assertHostAddress(target, 'netperf target'), '-l', String(params.duration)];
  // -j keeps the per-transaction timings behind the latency selectors (PKB passes it too).
  if (rr) argv.push('-j');
  if (params.histogram) argv.push('-v', '2');
  if (params.confidenceLevel !== undefined) {
    argv.push('-I', `${params.confidenceLevel},${params.confidenceWidth ?? 5}`);
    argv.push('-i', `${params.confidenceMax ?? 10},${params.confidenceMin ?? 3}`);
  }
  if (params.cpuUtil) argv.push('-c', '-C');
  // -T local,remote binds netperf and netserver's test process; an empty side stays unbound.
  if (params.cpu_client !== undefined || params.cpu_server !== undefined) argv.push('-T', `${params.cpu_client ?? ''},${params.cpu_server ?? ''}`);
  // Demo mode: an interim result every `demo` seconds, on stdout as `value,units,seconds,end-epoch`.
  if (params.demo !== undefined) argv.push('-D', String(params.demo));
  if (params.tos !== undefined) argv.push('-Y', `${params.tos},${params.tos}`);
  if (params.intervalWaitMs !== undefined) {
    // netperf reads -w as an integer with a unit suffix; microseconds keep fractions of a millisecond.
    argv.push('-w', `${Math.max(1, Math.round(params.intervalWaitMs * 1000))}us`, '-b', String(params.intervalBurst ?? 1));
  }

  argv.push('--', '-P', `,${ports.data}`);
  if (rr) argv.push('-r', `${params.requestSize ?? 1},${params.responseSize ?? 1}`);
  // Test-specific -b: transactions in flight at once ("first burst"), not the global -b of interval pacing.
  if (rr && params.burst !== undefined && params.burst > 0) argv.push('-b', String(params.burst));
  else if (params.sendSize !== undefined) argv.push('-m', String(params.sendSize));
  if (params.socketBuffer !== undefined) argv.push('-s', String(params.socketBuffer), '-S', String(params.socketBuffer));
  if (params.nodelay && test.startsWith('TCP_')) argv.push('-D');
  if (params.congestion !== undefined && test.startsWith('TCP_')) argv.push('-K', `${params.congestion},${params.congestion}`);
  // UDP_STREAM sets SO_DONTROUTE unless told otherwise, which fails across a router (PKB passes -R 1).
  if (test === 'UDP_STREAM') argv.push('-R', '1');
  const selectors = [...(rr ? RR_SELECTORS : STREAM_SELECTORS)];
  // Before COMMAND_LINE, which stays last.
  if (test.startsWith('TCP_')) selectors.splice(selectors.length - 1, 0, ...TCP_SELECTORS);
  argv.push('-o', selectors.join(','));
  return argv;
}
