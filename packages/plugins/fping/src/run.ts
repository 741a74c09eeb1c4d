import { NetbenchError, paramLabels, TimeoutError, ToolMissingError, type TrialContext, type TrialOutput, type TrialRun, UnsupportedError } from '@netbench/plugin-api';
import { firstOutput, pinnedArgv, readAffinity } from '@netbench/plugin-api/tool-kit';
import { fpingSamples } from './fping-samples.js';
import { parseFpingOutput } from './parse-output.js';
import { type FpingTrialSettings, fpingArgv } from './trial-settings.js';

/** fping refuses shorter periods to a normal user ("too risky for mere mortals"). */
const MIN_USER_PERIOD_MS = 10;

/**
 * One fping trial: forward fpings the server from the client, reverse the
 * client from the server. Both streams are saved before they are parsed;
 * exit 1 (some requests unanswered) is still a measurement: the loss.
 */
export async function runFping(trial: TrialRun<FpingTrialSettings>, ctx: TrialContext): Promise<TrialOutput> {
  const settings = trial.params;
  const forward = settings.direction === 'forward';
  const host = forward ? trial.client : trial.server;
  const info = forward ? trial.clientInfo : trial.serverInfo;
  const target = forward ? trial.target : reverseTarget(trial);
  if (info.features.root === false && settings.period < MIN_USER_PERIOD_MS) {
    throw new UnsupportedError(`fping period ${settings.period} ms needs root on host ${host.name} (a normal user gets ${MIN_USER_PERIOD_MS} ms at least)`);
  }

  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  // `cpus.client` pins the process that sends the requests (on the server host for reverse).
  const proc = host.spawn(pinnedArgv(fpingArgv(settings, target), settings.cpu_client), { signal });
  proc.stdin.on('error', () => {});
  proc.stdin.end();
  // Where the pinging process runs, as the kernel says: read at its first reply line (past taskset) or after 0.3 s, while it runs.
  const affinity = firstOutput(proc.stdout, 300).then(() => readAffinity(host, proc.pid, signal));
  let replies = 0;
  proc.stdout.on('data', (chunk: Buffer) => {
    replies += chunk.toString().split('\n').length - 1;
    ctx.progress(Math.min(0.99, replies / settings.count), `${Math.min(replies, settings.count)}/${settings.count} requests`);
  });
  const result = await proc.exited;
  const placement = { cpu_client_affinity: (await affinity) ?? 'unknown' };

  const rawName = `fping-${settings.direction}.txt`;
  // One file as fping's two streams would land in a terminal: per-packet lines, then the summary.
  const raw = `${result.stdout}${result.stdout.endsWith('\n') || result.stdout === '' ? '' : '\n'}${result.stderr}`;
  await ctx.saveRaw(rawName, raw);
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new NetbenchError('fping aborted');
  if (timeout.aborted) throw new TimeoutError(`fping from ${host.name} to ${target} took longer than ${ctx.timeoutMs} ms`);
  if (result.code === 127) throw new ToolMissingError('fping', host.name, result.stderr.trim());
  if (result.code !== 0 && result.code !== 1) {
    throw new NetbenchError(`fping from ${host.name} to ${target} failed (exit ${result.code ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  const output = parseFpingOutput(raw, rawName);
  const [only] = output.targets;
  if (only && only.received === 0) ctx.log.warn(`fping from ${host.name} to ${target}: no replies (${only.sent} sent, ${only.icmpErrors} ICMP errors)`);
  ctx.progress(1, `${only?.received ?? 0}/${only?.sent ?? settings.count} replies`);
  return { samples: fpingSamples(output, { ...paramLabels(trial.params), ...placement }) };
}

/** Ping back on the same kind of address the spec chose for the forward direction. */
function reverseTarget(trial: TrialRun<FpingTrialSettings>): string {
  const external = trial.server.externalIp !== undefined && trial.target === trial.server.externalIp && trial.target !== trial.server.internalIp;
  if (!external) return trial.client.internalIp;
  if (trial.client.externalIp === undefined) throw new UnsupportedError(`reverse fping over external addresses: client host ${trial.client.name} has no external IP`);
  return trial.client.externalIp;
}
