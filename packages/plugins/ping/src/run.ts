import {
  type Host,
  NetbenchError,
  paramLabels,
  RetryableError,
  TimeoutError,
  type ToolInfo,
  ToolMissingError,
  type TrialContext,
  type TrialOutput,
  type TrialRun,
  UnsupportedError,
} from '@netbench/plugin-api';
import { firstOutput, gatedArgv, openGate, pinnedArgv, readAffinity, shutGate } from '@netbench/plugin-api/tool-kit';
import { eachLine, replySample } from './flows.js';
import { PingReplyReader } from './live-reply.js';
import { parsePingOutput } from './parse-output.js';
import { pingSamples } from './ping-samples.js';
import { trackPingProgress } from './progress-tracker.js';
import { type PingTrialSettings, pingArgv } from './trial-settings.js';

/**
 * One ping trial: forward pings the server from the client, reverse pings
 * the client from the server. The raw output is saved before it is parsed.
 */
export async function runPing(trial: TrialRun<PingTrialSettings>, ctx: TrialContext): Promise<TrialOutput> {
  const settings = trial.params;
  const forward = settings.direction === 'forward';
  const host = forward ? trial.client : trial.server;
  const info = forward ? trial.clientInfo : trial.serverInfo;
  const target = forward ? trial.target : reverseTarget(trial);
  assertAllowed(settings, info, host);

  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const flow = ctx.flow;
  // `cpus.client` pins the process that sends the echo requests (on the server host for reverse).
  const argv = pinnedArgv(pingArgv(settings, target), settings.cpu_client);
  const proc = host.spawn(flow ? gatedArgv(argv) : argv, { signal });
  proc.stdin.on('error', () => {});
  if (flow) {
    // A latency probe of a synchronized trial: every reply is an interval sample on the controller's clock.
    eachLine(proc.stdout, (line) => {
      const sample = replySample(line, Date.now());
      if (sample) flow.interval(sample);
    });
    try {
      await flow.release();
    } catch (error) {
      shutGate(proc);
      await proc.exited.catch(() => {});
      throw error;
    }
    openGate(proc);
    flow.started();
  } else {
    proc.stdin.end();
  }
  // Where the pinging process runs, as the kernel says: read once ping has printed its header (past taskset), while it runs.
  const affinity = firstOutput(proc.stdout).then(() => readAffinity(host, proc.pid, signal));
  // Each reply as it arrives, for live display (not stored: the final parse is the record).
  const live = ctx.interval;
  const replies = new PingReplyReader(Date.now());
  trackPingProgress(
    proc.stdout,
    settings.count,
    (fraction, message) => ctx.progress(fraction, message),
    live &&
      ((line) => {
        const sample = replies.sample(line);
        if (sample) live(sample);
      }),
  );
  const result = await proc.exited;
  const placement = { cpu_client_affinity: (await affinity) ?? 'unknown' };

  const rawName = `ping-${settings.direction}.txt`;
  await ctx.saveRaw(rawName, result.stdout);
  if (result.stderr.trim() !== '') await ctx.saveRaw(`ping-${settings.direction}.stderr.txt`, result.stderr);
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new NetbenchError('ping aborted');
  if (timeout.aborted) throw new TimeoutError(`ping from ${host.name} to ${target} took longer than ${ctx.timeoutMs} ms`);
  // Exit 1 means replies were missing: still a measurement (the loss). Without statistics, ping failed outright.
  if (!result.stdout.includes('packets transmitted')) throw pingFailure(result.stderr, result.code, host, target);

  const output = parsePingOutput(result.stdout, rawName);
  if (output.summary.received === 0) {
    ctx.log.warn(`ping from ${host.name} to ${target}: no replies (${output.summary.transmitted} sent, ${output.summary.errors} errors)`);
  }
  ctx.progress(1, `${output.summary.received}/${output.summary.transmitted} replies`);
  return { samples: pingSamples(output, { ...paramLabels(trial.params), ...placement }) };
}

/** Ping back on the same kind of address the spec chose for the forward direction. */
function reverseTarget(trial: TrialRun<PingTrialSettings>): string {
  const external = trial.server.externalIp !== undefined && trial.target === trial.server.externalIp && trial.target !== trial.server.internalIp;
  if (!external) return trial.client.internalIp;
  if (trial.client.externalIp === undefined) {
    throw new UnsupportedError(`reverse ping over external addresses: client host ${trial.client.name} has no external IP`);
  }
  return trial.client.externalIp;
}

/** Fail before running when `check` already knows ping would refuse (it exits 2 with a terse message). */
function assertAllowed(settings: PingTrialSettings, info: ToolInfo, host: Host): void {
  if (info.features.root !== false) return;
  if (settings.flood) {
    throw new UnsupportedError(`flood ping (-f) needs root on host ${host.name}; run netbench as root there or set flood: false`);
  }
  const minimum = Number(info.features.min_user_interval ?? '0.2');
  if (settings.interval !== undefined && settings.interval < minimum) {
    throw new UnsupportedError(
      `ping interval ${settings.interval} s needs root on host ${host.name}: ping ${info.version} allows a normal user ${minimum} s at least; run as root or raise interval`,
    );
  }
}

function pingFailure(stderr: string, code: number | null, host: Host, target: string): Error {
  const detail = stderr.trim().split('\n').slice(-3).join(' | ') || `exit code ${code}`;
  const message = `ping from ${host.name} to ${target} failed: ${detail}`;
  // `env` (the argv's first word) exits 127 when it cannot find ping.
  if (code === 127) return new ToolMissingError('ping', host.name, detail);
  if (/minimal interval allowed for user|cannot flood/.test(stderr)) return new UnsupportedError(`${message} (needs root)`);
  if (/Operation not permitted|Permission denied/.test(stderr)) {
    return new UnsupportedError(`${message} (ping lacks CAP_NET_RAW and the host refuses unprivileged ICMP sockets)`);
  }
  if (/Temporary failure in name resolution/.test(stderr)) return new RetryableError(message);
  return new NetbenchError(message);
}
