import type { TrialContext, TrialOutput, TrialRun } from '@netbench/plugin-api';
import { RetryableError, type SampleInput } from '@netbench/plugin-api';
import { assertHostAddress } from '@netbench/plugin-api/tool-kit';
import { fullLogHistogram } from './full-log.js';
import { parseSockperf } from './parse.js';
import { FIRST_PORT } from './serve.js';
import type { SockperfTrialParams } from './trials.js';

const REFUSED_RE = /Connection refused|No messages were received from the server/;

/** The client argv for a trial; every value is its own argument. */
export function clientArgv(trial: Pick<TrialRun<SockperfTrialParams>, 'test' | 'params' | 'target'>, port: number, fullLog?: string): string[] {
  const p = trial.params;
  return [
    // -i's value; validated, since an address such as -f/etc/passwd must never read as an option.
    'sockperf',
    trial.test,
    '-i',
    assertHostAddress(trial.target, 'sockperf target'),
    '-p',
    String(port),
    '-t',
    String(p.duration),
    '-m',
    String(p.message_size),
    ...(p.protocol === 'tcp' ? ['--tcp'] : []),
    '--mps',
    String(p.mps),
    ...(trial.test === 'under-load' ? ['--reply-every', String(p.reply_every)] : []),
    ...(p.full_rtt ? ['--full-rtt'] : []),
    ...(fullLog ? ['--full-log', fullLog] : []),
  ];
}

/**
 * One trial: run the sockperf client on the client host against the
 * server's port, keep its output (and the full log) in the run folder, and
 * parse it. With `histogram`, every observation lands in a latency histogram
 * on the p50 sample (mergeable across trials and runs).
 */
export async function runSockperf(trial: TrialRun<SockperfTrialParams>, ctx: TrialContext): Promise<TrialOutput> {
  const port = Number(trial.serverHandle?.data['port'] ?? FIRST_PORT);
  const wantLog = trial.params.histogram;
  const log = wantLog ? `/tmp/netbench-sockperf-${ctx.runId}-${trial.id}-${trial.attempt}.csv` : undefined;
  const result = await trial.client.exec(clientArgv(trial, port, log), { signal: ctx.signal, timeoutMs: ctx.timeoutMs });
  const source = await ctx.saveRaw(`sockperf.txt`, `${result.stdout}${result.stderr}`);
  if (REFUSED_RE.test(result.stdout + result.stderr)) {
    throw new RetryableError(`sockperf ${trial.test} to ${trial.target}:${port}: ${(result.stdout + result.stderr).match(REFUSED_RE)?.[0]}`);
  }
  const samples = parseSockperf(result.stdout + result.stderr, { source, test: trial.test });
  if (!log) return { samples };
  const logged = await trial.client.exec(['cat', log], { signal: ctx.signal, timeoutMs: 60_000 });
  await trial.client.exec(['rm', '-f', log], { signal: ctx.signal, timeoutMs: 10_000 });
  if (logged.code !== 0) {
    ctx.log.warn(`sockperf: could not read the full log ${log}: ${logged.stderr.trim()}`);
    return { samples };
  }
  const logSource = await ctx.saveRaw(`sockperf-full-log.csv`, logged.stdout);
  const histogram = fullLogHistogram(logged.stdout, logSource).encode();
  return { samples: samples.map((s): SampleInput => (s.metric.endsWith('_p50') ? { ...s, histogram } : s)) };
}
