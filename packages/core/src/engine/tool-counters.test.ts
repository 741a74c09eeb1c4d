import type { EventInput, Host, Sample, ToolPlugin, TrialRecord } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import type { PlannedTrial } from '../plan/types.js';
import type { RunState } from './run-state.js';
import { withToolCounters } from './tool-counters.js';

type Explain = NonNullable<TrialRecord['explain']>;
const explain: Explain = { diagnoses: [], hosts: [] };
const client = { name: 'a' } as Host;
const server = { name: 'b' } as Host;
const sample = { metric: 'Server CPU Utilization', value: 7.5, unit: 'percent', labels: {} } as unknown as Sample;

/** The two parts of a run's state the hook reads: its tools and its event stream. */
function stateWith(counters: ToolPlugin['counters']) {
  const events: EventInput[] = [];
  const tool = { name: 'mytool', counters } as unknown as ToolPlugin<unknown>;
  const state = { tools: new Map([['mytool', tool]]), events: { emit: (e: EventInput) => events.push(e) } } as unknown as RunState;
  return { state, events };
}
const trial = { id: 't0001', tool: 'mytool', test: 'x', params: { n: 1 } } as unknown as PlannedTrial;

describe('withToolCounters', () => {
  it("stores the tool's counters with the tool and the end's host, from the trial's samples", () => {
    const { state } = stateWith(({ samples, params }) => [
      { name: 'server_cpu', value: samples[0]!.value, unit: 'percent', role: 'server' },
      { name: 'n', value: Number(params['n']), unit: 'count' },
    ]);
    expect(withToolCounters(state, trial, client, server, explain, [sample])?.toolCounters).toEqual([
      { tool: 'mytool', name: 'server_cpu', value: 7.5, unit: 'percent', role: 'server', host: 'b' },
      { tool: 'mytool', name: 'n', value: 1, unit: 'count' },
    ]);
  });

  it('drops an invalid counter with a warning and turns a throw into a note; never asks without counters or for flows', () => {
    const bad = stateWith(() => [
      { name: 'Bad', value: 1, unit: 'x' },
      { name: 'ok', value: 2, unit: 'x' },
    ]);
    expect(withToolCounters(bad.state, trial, client, server, explain, [])?.toolCounters?.map((c) => c.name)).toEqual(['ok']);
    expect(bad.events).toEqual([expect.objectContaining({ type: 'warning', plugin: 'mytool', message: expect.stringMatching(/t0001: dropped a counter: counter name "Bad"/) })]);
    const throwing = stateWith(() => {
      throw new Error('no JSON end');
    });
    expect(withToolCounters(throwing.state, trial, client, server, explain, [])).toEqual({ diagnoses: [], hosts: [], notes: ['[plugin mytool] counters: no JSON end'] });
    let asked = 0;
    const counting = stateWith(() => {
      asked += 1;
      return [];
    });
    expect(withToolCounters(counting.state, trial, client, server, undefined, [])).toBeUndefined();
    expect(withToolCounters(counting.state, { ...trial, flows: [] } as unknown as PlannedTrial, client, server, explain, [])).toBe(explain);
    expect(asked).toBe(0);
  });
});
