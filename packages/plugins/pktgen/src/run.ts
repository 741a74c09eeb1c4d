import { type Host, NetbenchError, paramLabels, TimeoutError, type TrialContext, type TrialOutput, type TrialRun, UnsupportedError } from '@netbench/plugin-api';
import { PGCTRL } from './check.js';
import { parsePktgenResult } from './parse-result.js';
import { pktgenSamples } from './pktgen-samples.js';
import { interfaceWithAddress, readProcNetDev, receivedBetween } from './receiver.js';
import { pktgenPath } from './route.js';
import { deviceCommands, type PktgenTrialSettings } from './trial-settings.js';

const PROGRESS_MS = 2000;
const PKTS_SOFAR_RE = /pkts-sofar: (\d+)/;

/**
 * One pktgen trial: the client's kernel thread `kpktgend_<cpu>` sends `count`
 * UDP packets out of the device that routes to the server, configured by
 * writes to `/proc/net/pktgen` (each value one `write()` through `tee`'s
 * standard input: no shell). `start` on pgctrl blocks until the count is
 * sent. The device file (pktgen's result) is saved, then parsed; the
 * server's `/proc/net/dev` before and after says what arrived.
 */
export async function runPktgen(trial: TrialRun<PktgenTrialSettings>, ctx: TrialContext): Promise<TrialOutput> {
  const settings = trial.params;
  const client = trial.client;
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const path = await pktgenPath(client, trial.target, signal);
  const thread = `/proc/net/pktgen/kpktgend_${settings.cpu_client}`;
  const deviceFile = `/proc/net/pktgen/${path.device}`;
  const probe = await client.exec(['test', '-e', thread], { signal, timeoutMs: 15_000 });
  if (probe.code !== 0) throw new UnsupportedError(`pktgen: host ${client.name} has no ${thread} (no CPU ${settings.cpu_client} there)`);

  const receiverDevice = interfaceWithAddress((await trial.server.exec(['ip', '-o', 'addr', 'show'], { signal, timeoutMs: 15_000 })).stdout, trial.target);
  if (!receiverDevice) ctx.log.warn(`pktgen: no interface of host ${trial.server.name} holds ${trial.target}; what arrived is not counted`);

  await write(client, thread, 'rem_device_all', signal);
  let progress: NodeJS.Timeout | undefined;
  try {
    await write(client, thread, `add_device ${path.device}`, signal);
    for (const command of deviceCommands(settings, trial.target, path.mac)) await write(client, deviceFile, command, signal);
    const before = receiverDevice ? await readProcNetDev(trial.server, signal) : '';
    if (receiverDevice) await ctx.saveRaw('receiver-before.txt', before);
    progress = setInterval(() => {
      void client.exec(['cat', deviceFile], { signal, timeoutMs: PROGRESS_MS }).then(
        (r) => {
          const sent = Number(PKTS_SOFAR_RE.exec(r.stdout)?.[1] ?? 0);
          ctx.progress(Math.min(0.99, sent / settings.count), `${sent}/${settings.count} packets`);
        },
        () => {},
      );
    }, PROGRESS_MS);
    // Blocks until every thread has sent its count (or was stopped).
    const started = await client.exec(['tee', PGCTRL], { signal, stdin: 'start\n' }).catch(async (error: unknown) => {
      await stop(client);
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new NetbenchError('pktgen aborted');
      if (timeout.aborted) throw new TimeoutError(`pktgen from ${client.name} to ${trial.target} took longer than ${ctx.timeoutMs} ms (stopped it)`);
      throw error;
    });
    clearInterval(progress);
    const raw = (await client.exec(['cat', deviceFile], { signal, timeoutMs: 15_000 })).stdout;
    const rawName = `pktgen-${path.device}.txt`;
    await ctx.saveRaw(rawName, raw);
    if (started.code !== 0) throw new NetbenchError(`pktgen start on host ${client.name} failed (exit ${started.code ?? started.signal}): ${started.stderr.trim()}`);
    const after = receiverDevice ? await readProcNetDev(trial.server, signal) : '';
    if (receiverDevice) await ctx.saveRaw('receiver-after.txt', after);
    const result = parsePktgenResult(raw, rawName);
    const received = receiverDevice ? receivedBetween(before, after, receiverDevice) : undefined;
    if (receiverDevice && !received) ctx.log.warn(`pktgen: ${receiverDevice} of host ${trial.server.name} is not in its /proc/net/dev; what arrived is not counted`);
    ctx.progress(1, `${result.packets}/${settings.count} packets, ${result.pps} pps`);
    return { samples: pktgenSamples(result, received, { ...paramLabels(trial.params), next_hop: path.nextHop }) };
  } finally {
    clearInterval(progress);
    // Let the device go: pktgen holds it until removed (or until it is deleted with its namespace).
    await write(client, thread, 'rem_device_all', AbortSignal.timeout(15_000)).catch(() => {});
  }
}

/** One pktgen command: one write() of `command` to `file`, through `tee`'s standard input. */
async function write(host: Host, file: string, command: string, signal: AbortSignal): Promise<void> {
  const result = await host.exec(['tee', file], { signal, timeoutMs: 15_000, stdin: `${command}\n` });
  if (result.code !== 0) throw new NetbenchError(`pktgen on host ${host.name} refused "${command}" (${file}): ${result.stderr.trim()}`);
}

async function stop(host: Host): Promise<void> {
  await host.exec(['tee', PGCTRL], { signal: AbortSignal.timeout(15_000), stdin: 'stop\n' }).catch(() => {});
}
