import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import iperf3 from '@netbench/plugin-iperf3';
import netperf from '@netbench/plugin-netperf';
import { openBenchLab } from './lab.mjs';
import { line, median } from './lib.mjs';

const ROUNDS = 5;

/**
 * On the same two namespaces, alternate back-to-back: the tool run by hand
 * (`ip netns exec … netperf/iperf3`) and the same measurement through the
 * netbench plugin. Medians of each side, and the difference.
 */
export default async function fidelity() {
  const lab = await openBenchLab('netbench-bench-fid-');
  const { client, server, ctx, runDir } = lab;
  const handles = [];
  try {
    const trialCtx = (id) => ({ ...ctx, timeoutMs: 60_000, saveRaw: async () => join(runDir, 'raw', id), progress() {} });
    const trial = (tool, info, test, params, handle) => ({
      id: `${tool.name}-${test}`,
      test,
      params,
      client,
      server,
      target: server.internalIp,
      serverHandle: handle,
      clientInfo: info,
      serverInfo: info,
      attempt: 0,
    });

    // netperf TCP_RR p50
    const netperfInfo = await netperf.check(client, ctx);
    const netperfHandle = netperf.serve ? await netperf.serve(server, netperfInfo, ctx) : undefined;
    if (netperfHandle) handles.push(netperfHandle);
    const port = netperfHandle?.data?.ports?.[0]?.control ?? 20000;
    const byHand = [];
    const viaNetbench = [];
    const [params] = netperf.trials(netperf.schema.parse({ tests: ['TCP_RR'], duration: 5 })).map((t) => t.params);
    for (let i = 0; i < ROUNDS; i += 1) {
      const out = execFileSync(
        'ip',
        ['netns', 'exec', nsOf(client), 'netperf', '-H', server.internalIp, '-p', String(port), '-t', 'TCP_RR', '-l', '5', '-j', '--', '-r', '1,1', '-o', 'P50_LATENCY'],
        { encoding: 'utf8' },
      );
      byHand.push(Number(out.trim().split('\n').at(-1)));
      const { samples } = await netperf.run(trial(netperf, netperfInfo, 'TCP_RR', params, netperfHandle), trialCtx(`netperf-${i}`));
      viaNetbench.push(samples.find((s) => s.metric === 'TCP_RR_Latency_p50' && s.labels?.stream === undefined).value);
    }
    report('netperf TCP_RR p50 (us)', byHand, viaNetbench);

    // iperf3 TCP throughput
    const iperfInfo = await iperf3.check(client, ctx);
    const iperfHand = [];
    const iperfNetbench = [];
    const [iperfParams] = iperf3.trials(iperf3.schema.parse({ duration: 5 })).map((t) => t.params);
    for (let i = 0; i < ROUNDS; i += 1) {
      const serverProc = server.spawn(['iperf3', '-s', '-1', '-p', '5299']);
      await new Promise((r) => setTimeout(r, 300));
      const out = JSON.parse(execFileSync('ip', ['netns', 'exec', nsOf(client), 'iperf3', '-c', server.internalIp, '-p', '5299', '-t', '5', '-J'], { encoding: 'utf8' }));
      await serverProc.exited;
      iperfHand.push(out.end.sum_received.bits_per_second / 1e6);
      const { samples } = await iperf3.run(trial(iperf3, iperfInfo, 'tcp', iperfParams), trialCtx(`iperf3-${i}`));
      iperfNetbench.push(samples.find((s) => s.metric === 'Throughput' && s.labels?.interval_start === undefined && s.labels?.stream === undefined).value);
    }
    report('iperf3 TCP throughput (Mbits/sec)', iperfHand, iperfNetbench);
  } finally {
    for (const handle of handles) await handle.stop().catch(() => {});
    await lab.close();
  }
}

function nsOf(host) {
  return host.labels.netns;
}

function report(what, byHand, viaNetbench) {
  const a = median(byHand);
  const b = median(viaNetbench);
  line(`${what} by hand, median of ${byHand.length}`, a.toFixed(1));
  line(`${what} via netbench, median of ${viaNetbench.length}`, b.toFixed(1));
  line(`${what} difference`, `${(((b - a) / a) * 100).toFixed(1)} %`, 'within 3 %');
}
