// Every question the desktop wizard asks, answered for the local lab (two
// namespaces of this machine), with and without a shaped rate and in every
// direction: the spec it writes passes `netbench validate --json` with no
// warning of its own (CPUs pinned, shaping on what a trial measures). One
// generated spec (packets per second: netperf 64-byte UDP_STREAM and 1-byte
// UDP_RR) runs for real, briefly.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSpec, type WizardAnswers } from '@netbench/desktop';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from './helpers/cli.js';

const home = tempHome('nbt-wizard-lab-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

const QUESTIONS: Pick<WizardAnswers, 'question' | 'tools' | 'netperfTests'>[] = [
  { question: 'latency', tools: ['ping', 'netperf'], netperfTests: ['TCP_RR'] },
  { question: 'throughput', tools: ['iperf3', 'netperf'], netperfTests: ['TCP_STREAM'] },
  { question: 'pps', tools: ['netperf', 'iperf3'], netperfTests: ['UDP_RR', 'UDP_STREAM'] },
  { question: 'load', tools: ['load'] },
  { question: 'onprem', tools: ['ping', 'netperf', 'iperf3'], netperfTests: ['TCP_RR', 'TCP_STREAM'] },
];

function answers(q: (typeof QUESTIONS)[number], direction: 'forward' | 'reverse' | 'both', rateMbit?: number): WizardAnswers {
  return {
    name: `lab-${q.question}`,
    ...q,
    sites: [{ kind: 'local' }, { kind: 'local' }],
    durationSeconds: 2,
    direction,
    repetitions: 1,
    ...(rateMbit !== undefined ? { shaping: { rateMbit } } : {}),
  };
}

describe("the wizard's local-lab specs", () => {
  const cases = QUESTIONS.flatMap((q) => (['forward', 'reverse', 'both'] as const).flatMap((d) => [undefined, 100].map((rate) => ({ q, d, rate }))));
  it.each(cases)('$q.question, $d, rate $rate: validate --json prints no warning', async ({ q, d, rate }) => {
    const file = join(home, `${q.question}-${d}-${rate ?? 'none'}.yaml`);
    writeFileSync(file, generateSpec(answers(q, d, rate)));
    const result = await runCli(['validate', file, '--json'], { env: { NETBENCH_HOME: home } });
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as { valid: boolean; trials: number; warnings: string[] };
    expect(out.valid).toBe(true);
    expect(out.trials).toBeGreaterThan(0);
    expect(out.warnings, readFileSync(file, 'utf8')).toEqual([]);
  });
});
