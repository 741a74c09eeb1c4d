import type { EventInput } from '@netbench/plugin-api';
import { isRetryable, PluginError, processHost, RetryableError, TimeoutError } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import { callPlugin } from './call-plugin.js';

const plugin = { name: 'demo' };

describe('callPlugin', () => {
  it('returns the result and records the call', async () => {
    const events: EventInput[] = [];
    const host = processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1' });
    const result = await callPlugin(plugin, 'check', () => host.exec(['echo', 'hi']), { emit: (e) => events.push(e) });
    expect(result.stdout).toBe('hi\n');
    expect(events).toEqual([{ type: 'plugin-call', plugin: 'demo', hook: 'check', durationMs: expect.any(Number), ok: true }]);
  });

  it('names plugin and hook in errors and keeps the cause (sync throws too)', async () => {
    const events: EventInput[] = [];
    const cause = new RetryableError('port in use');
    const error = await callPlugin(
      plugin,
      'run',
      () => {
        throw cause;
      },
      { emit: (e) => events.push(e) },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).message).toBe('[plugin demo] run: port in use');
    expect((error as PluginError).cause).toBe(cause);
    expect(isRetryable(error)).toBe(true);
    expect(events[0]).toMatchObject({ ok: false });
  });

  it('aborts the call at its timeout, which kills a real command', async () => {
    const host = processHost({ id: 'h', name: 'h', cloud: 'local', internalIp: '127.0.0.1' });
    const began = Date.now();
    const error = await callPlugin(plugin, 'run', (signal) => host.exec(['sleep', '30'], { signal }), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(Date.now() - began).toBeLessThan(3000);
    expect((error as PluginError).cause).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('[plugin demo] run: did not finish within 300 ms');
  });

  it('stops waiting for a promise that never settles', async () => {
    const began = Date.now();
    const error = await callPlugin(plugin, 'teardown', () => new Promise<never>(() => {}), { timeoutMs: 200, graceMs: 100 }).catch((e: unknown) => e);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    expect(Date.now() - began).toBeLessThan(2000);
    expect((error as Error).message).toBe('[plugin demo] teardown: did not finish within 200 ms');
  });

  it('passes an interrupt to the call and keeps what the call returns within the grace period', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted by SIGINT')), 50);
    const partial = await callPlugin(plugin, 'run', (signal) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve('partial'))), {
      signal: controller.signal,
    });
    expect(partial).toBe('partial');
  });

  it('gives up on an interrupted call that ignores its signal after the grace period', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted by SIGTERM'));
    const error = await callPlugin(plugin, 'run', () => new Promise<never>(() => {}), { signal: controller.signal, graceMs: 50 }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('[plugin demo] run: interrupted by SIGTERM');
  });

  it('does not wrap its own plugin error twice', async () => {
    const inner = new PluginError('demo', 'run', new Error('x'));
    const error = await callPlugin(plugin, 'run', async () => {
      throw inner;
    }).catch((e: unknown) => e);
    expect(error).toBe(inner);
  });
});
