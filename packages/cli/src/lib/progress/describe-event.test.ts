import type { NetbenchEvent } from '@netbench/plugin-api';
import { expect, it } from 'vitest';
import { describeEvent } from './describe-event.js';

const base = { seq: 1, time: 0, runId: 'r' };
const call = (plugin: string, hook: string, durationMs: number, ok: boolean): NetbenchEvent => ({ ...base, type: 'plugin-call', plugin, hook, durationMs, ok });

it('says when a tunnel is up (or failed) and how long it took; other plugin calls move no line', () => {
  expect(describeEvent(call('tunnels', 'up kwg', 12_340, true), { color: false })).toBe('tunnel kwg up in 12.3 s');
  expect(describeEvent(call('tunnels', 'up kesp', 800, false), { color: false })).toBe('tunnel kesp failed in 0.8 s');
  expect(describeEvent(call('ping', 'check', 800, true), { color: false })).toBeUndefined();
});
