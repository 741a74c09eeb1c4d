import type { SampleInput, ToolCounter, ToolCountersInput } from '@netbench/plugin-api';

const CPU: readonly (readonly [string, 'client' | 'server', string])[] = [
  ['Client CPU Utilization', 'client', 'client_cpu_total'],
  ['Client CPU System', 'client', 'client_cpu_system'],
  ['Server CPU Utilization', 'server', 'server_cpu_total'],
  ['Server CPU System', 'server', 'server_cpu_system'],
];

/**
 * iperf3's own counters of a trial (`ToolPlugin.counters`): the CPU each
 * end's iperf3 process used as iperf3 measured it (its `getrusage`, so only
 * that process — what `/proc/stat` cannot tell apart from other programs),
 * and the TCP retransmits of each direction's sender as iperf3 counted them
 * on its own sockets. Read from the trial's samples, which `parse` made
 * from iperf3's JSON; no I/O.
 */
export function iperf3Counters(input: ToolCountersInput): ToolCounter[] {
  const whole = input.samples.filter((s) => s.labels?.['interval_start'] === undefined);
  const first = (metric: string): SampleInput | undefined => whole.find((s) => s.metric === metric);
  const out: ToolCounter[] = [];
  for (const [metric, role, name] of CPU) {
    const s = first(metric);
    if (s) out.push({ name, value: s.value, unit: 'percent', role });
  }
  for (const s of whole.filter((x) => x.metric === 'Retransmits')) {
    // Forward: the client sends; reverse: the server does.
    const role = s.labels?.['direction'] === 'reverse' ? 'server' : 'client';
    out.push({ name: 'sender_retransmits', value: s.value, unit: 'segments', role });
  }
  return out;
}
