import { NetbenchError, paramLabels, TimeoutError, ToolMissingError, type TrialContext, type TrialOutput, type TrialRun, UnsupportedError } from '@netbench/plugin-api';
import { pinnedArgv } from '@netbench/plugin-api/tool-kit';
import { type FloodFacts, hping3Samples } from './hping3-samples.js';
import { parseHping3Output } from './parse-output.js';
import { interfaceWithAddress, readProcNetDev, receivedBetween } from './receiver.js';
import { type Hping3TrialSettings, hping3Argv } from './trial-settings.js';

/**
 * One hping3 trial from the client to the server's address. syn: exit 1
 * (nothing answered) is still a measurement, the loss. flood: `timeout -s INT`
 * stops it (exit 124) and netbench's clock gives the send time; the server's
 * `/proc/net/dev` before and after says what arrived (hping3 reads no replies
 * in flood mode). stdout and stderr are saved as one file before parsing.
 */
export async function runHping3(trial: TrialRun<Hping3TrialSettings>, ctx: TrialContext): Promise<TrialOutput> {
  const settings = trial.params;
  const client = trial.client;
  if (trial.clientInfo.features.root === false) throw new UnsupportedError(`hping3 writes raw packets: it needs root on host ${client.name}`);
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const flood = settings.mode === 'flood';
  const receiverDevice = flood ? interfaceWithAddress((await trial.server.exec(['ip', '-o', 'addr', 'show'], { signal, timeoutMs: 15_000 })).stdout, trial.target) : undefined;
  const before = receiverDevice ? await readProcNetDev(trial.server, signal) : '';

  const startedAt = performance.now();
  const proc = client.spawn(pinnedArgv(hping3Argv(settings, trial.target), settings.cpu_client), { signal });
  proc.stdin.on('error', () => {});
  proc.stdin.end();
  let replies = 0;
  proc.stdout.on('data', (chunk: Buffer) => {
    if (flood || settings.count === undefined) return;
    replies += chunk
      .toString()
      .split('\n')
      .filter((line) => line.startsWith('len=')).length;
    ctx.progress(Math.min(0.99, replies / settings.count), `${replies}/${settings.count} replies`);
  });
  const result = await proc.exited;
  const seconds = (performance.now() - startedAt) / 1000;
  const after = receiverDevice ? await readProcNetDev(trial.server, signal) : '';

  const rawName = `hping3-${settings.mode}.txt`;
  const raw = `${result.stdout}${result.stdout.endsWith('\n') || result.stdout === '' ? '' : '\n'}${result.stderr}`;
  await ctx.saveRaw(rawName, raw);
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new NetbenchError('hping3 aborted');
  if (timeout.aborted) throw new TimeoutError(`hping3 from ${client.name} to ${trial.target} took longer than ${ctx.timeoutMs} ms`);
  if (result.code === 127) throw new ToolMissingError('hping3', client.name, result.stderr.trim());
  // 1: no reply at all (syn); 124: timeout's SIGINT ended a flood, as asked.
  const expected = flood ? [0, 124] : [0, 1];
  if (!expected.includes(result.code ?? -1)) {
    throw new NetbenchError(
      `hping3 from ${client.name} to ${trial.target} failed (exit ${result.code ?? result.signal}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`,
    );
  }
  const output = parseHping3Output(raw, rawName);
  if (!flood && output.received === 0) ctx.log.warn(`hping3 from ${client.name} to ${trial.target}: no replies (${output.transmitted} sent)`);
  const received = receiverDevice ? receivedBetween(before, after, receiverDevice) : undefined;
  const facts: FloodFacts | undefined = flood ? { seconds, ...(received ? { received } : {}) } : undefined;
  ctx.progress(1, flood ? `${output.transmitted} SYNs in ${seconds.toFixed(1)} s` : `${output.received}/${output.transmitted} replies`);
  return { samples: hping3Samples(output, paramLabels(trial.params), facts) };
}
