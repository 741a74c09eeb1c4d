import { createInterface } from 'node:readline';
import type { ExecResult, HostProcess, TrialContext, TrialOutput, TrialRun } from '@netbench/plugin-api';
import { NetbenchError, paramLabels, RetryableError } from '@netbench/plugin-api';
import {
  assertHostAddress,
  firstOutput,
  gatedArgv,
  openGate,
  type PortPool,
  pinnedArgv,
  placementLabels,
  readAffinity,
  shutGate,
  trialDeadline,
  withToolServer,
} from '@netbench/plugin-api/tool-kit';
import { irttSamples } from './irtt-samples.js';
import { parsePacketLine } from './packet-line.js';
import { parseIrttJson } from './parse-result.js';
import { IRTT_SERVER, servedPort, servedProcess } from './server.js';
import { clientArgv, type IrttTrialSettings, serverArgv } from './trial-settings.js';

const PROGRESS_EVERY_MS = 500;
const CLIENT_KILL_GRACE_MS = 2_000;
/** With `-q` the client prints nothing until it ends: its affinity is read this long after it started instead. */
const AFFINITY_WAIT_MS = 300;

/**
 * One irtt trial: the client against the run's server on the server host (a
 * one-off server when `serve` gave none). As a flow it is spawned held at a
 * gate, streams every packet's RTT and one-way delays through `ctx.flow.interval` as the line
 * arrives, and starts at the barrier. Raw JSON and text are saved before parsing.
 */
export async function runIrtt(trial: TrialRun<IrttTrialSettings>, ctx: TrialContext, ports: PortPool): Promise<TrialOutput> {
  // Before any server starts: the address becomes part of the client's operand.
  assertHostAddress(trial.target, 'irtt target');
  const { signal, failure } = trialDeadline(ctx, `irtt trial ${trial.id}`);
  try {
    const cpu = trial.params.cpu_server;
    // The run's server is shared by every trial: a pinned server is the trial's own, started under taskset.
    const port = cpu === undefined ? servedPort(trial.serverHandle, ctx.runId, trial.server) : undefined;
    if (port !== undefined) return await runClient(trial, ctx, port, signal, servedProcess(ctx.runId, trial.server)?.pid);
    const argv = (p: number) => pinnedArgv(serverArgv(p), cpu);
    return await withToolServer(trial.server, ports, argv, IRTT_SERVER, signal, (server) => runClient(trial, ctx, server.port, signal, server.process.pid));
  } catch (error) {
    throw failure(error);
  }
}

async function runClient(trial: TrialRun<IrttTrialSettings>, ctx: TrialContext, port: number, signal: AbortSignal, serverPid: number | undefined): Promise<TrialOutput> {
  const settings = trial.params;
  const { flow } = ctx;
  const argv = pinnedArgv(clientArgv(settings, trial.target, port, flow !== undefined), settings.cpu_client);
  const proc = trial.client.spawn(flow ? gatedArgv(argv) : argv, { signal });
  proc.stdin.on('error', () => {});
  const packets = streamPackets(proc, (line) => {
    if (!flow) return;
    const timestamp = Date.now();
    flow.interval({ metric: 'rtt', value: line.rttMs, unit: 'ms', timestamp });
    // One-way delays say which direction's queue a load filled (latency-under-load probes).
    if (line.sendDelayMs !== undefined) flow.interval({ metric: 'send_delay', value: line.sendDelayMs, unit: 'ms', timestamp });
    if (line.receiveDelayMs !== undefined) flow.interval({ metric: 'receive_delay', value: line.receiveDelayMs, unit: 'ms', timestamp });
  });
  if (flow) {
    try {
      await flow.release();
    } catch (error) {
      shutGate(proc);
      await proc.exited.catch(() => undefined);
      throw error;
    }
    openGate(proc);
    flow.started();
  } else {
    proc.stdin.end();
  }
  // Where each end runs, as the kernel says: the client once it has exec'd past taskset (its first packet line), the server now.
  const affinity = Promise.all([
    firstOutput(proc.stderr, AFFINITY_WAIT_MS).then(() => readAffinity(trial.client, proc.pid, signal)),
    readAffinity(trial.server, serverPid, signal),
  ]).catch(() => [undefined, undefined] as const);
  const result = await exited(proc, signal, settings.duration, ctx);
  const [clientCpus, serverCpus] = await affinity;
  await ctx.saveRaw('irtt-client.json', result.stdout);
  if (result.stderr.trim() !== '') await ctx.saveRaw('irtt-client.txt', result.stderr);
  await packets;
  signal.throwIfAborted();
  if (result.stdout.trim() === '') throw clientFailure(result, trial);
  const parsed = parseIrttJson(result.stdout, 'irtt-client.json');
  ctx.progress(1, `${parsed.packetsReceived}/${parsed.packetsSent} packets`);
  return { samples: irttSamples(parsed, { ...paramLabels(trial.params), ...placementLabels(clientCpus, serverCpus) }, { perPacket: settings.per_packet }) };
}

/** Read stderr line by line as it comes; resolves at its end. */
function streamPackets(proc: HostProcess, onPacket: (line: NonNullable<ReturnType<typeof parsePacketLine>>) => void): Promise<void> {
  const lines = createInterface({ input: proc.stderr, crlfDelay: Infinity });
  lines.on('line', (text) => {
    const packet = parsePacketLine(text);
    if (packet) onPacket(packet);
  });
  return new Promise((resolve) => lines.once('close', () => resolve()));
}

async function exited(proc: HostProcess, signal: AbortSignal, seconds: number, ctx: TrialContext): Promise<ExecResult> {
  const started = Date.now();
  const progress = setInterval(() => {
    const elapsed = (Date.now() - started) / 1000;
    ctx.progress(Math.min(0.99, elapsed / seconds), `${Math.min(Math.floor(elapsed), seconds)}/${seconds} s`);
  }, PROGRESS_EVERY_MS);
  const onAbort = () => setTimeout(() => proc.kill('SIGKILL'), CLIENT_KILL_GRACE_MS).unref();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await proc.exited;
  } finally {
    clearInterval(progress);
    signal.removeEventListener('abort', onAbort);
  }
}

/** irtt prints `Error: ...` on stderr and nothing on stdout when the test could not run. */
function clientFailure(result: ExecResult, trial: TrialRun<IrttTrialSettings>): Error {
  const said = /^Error: (.*)$/m.exec(result.stderr)?.[1] ?? (result.stderr.trim().split('\n').slice(-2).join(' | ') || `exit code ${result.code ?? result.signal}`);
  const message = `irtt client on ${trial.client.name} to ${trial.target} failed: ${said}`;
  // The server may still be binding, or a packet of the handshake was lost: irtt retries 4 times, then gives up.
  if (/connection refused|no reply from server/i.test(said)) return new RetryableError(message);
  return new NetbenchError(message);
}
