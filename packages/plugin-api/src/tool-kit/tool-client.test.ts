import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TimeoutError } from '../errors/index.js';
import { type TestTrialContext, testTrialContext } from '../testing/test-trial-context.js';
import { processHost } from '../transport/process-host.js';
import { runToolClient, trialDeadline } from './tool-client.js';

const host = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });
const node = (code: string) => [process.execPath, '-e', code];
const contexts: TestTrialContext[] = [];
afterEach(() => {
  for (const t of contexts.splice(0)) t.dispose();
});
function context(timeoutMs?: number): TestTrialContext {
  const t = testTrialContext(timeoutMs);
  contexts.push(t);
  return t;
}

describe('runToolClient (real processes)', () => {
  it('saves stdout always and stderr when there is some, and reports progress while it runs', async () => {
    const t = context();
    const result = await runToolClient(host, node('console.log("report"); console.error("warn"); setTimeout(() => {}, 1200)'), t.ctx, {
      signal: t.ctx.signal,
      seconds: 2,
      stdoutName: 'c.txt',
      stderrName: 'c.stderr.txt',
    });
    expect(result.code).toBe(0);
    expect(readFileSync(t.saved.get('c.txt')!, 'utf8')).toBe('report\n');
    expect(readFileSync(t.saved.get('c.stderr.txt')!, 'utf8')).toBe('warn\n');
    expect(t.progress.length).toBeGreaterThanOrEqual(1);
    expect(t.progress.every((p) => p.fraction > 0 && p.fraction < 1 && /^\d\/2 s$/.test(p.message ?? ''))).toBe(true);
    const count = t.progress.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    // No progress after the client ended.
    expect(t.progress.length).toBe(count);
  });

  it('keeps no stderr file for a quiet client; closes stdin so a reader ends', async () => {
    const t = context();
    const result = await runToolClient(host, node('process.stdin.resume(); process.stdin.on("end", () => console.log("eof"))'), t.ctx, {
      signal: t.ctx.signal,
      stdoutName: 'o.txt',
      stderrName: 'e.txt',
    });
    expect(result.stdout).toBe('eof\n');
    expect(t.saved.has('e.txt')).toBe(false);
    expect(t.progress).toEqual([]);
  });

  it('on abort a client that ignores SIGTERM is killed, and its output is still saved', async () => {
    const t = context();
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const began = Date.now();
    const result = await runToolClient(host, node('process.on("SIGTERM", () => {}); console.log("partial"); setInterval(() => {}, 1000)'), t.ctx, {
      signal: abort.signal,
      stdoutName: 'k.txt',
      stderrName: 'k.err',
    });
    expect(result.signal).toBe('SIGKILL');
    expect(Date.now() - began).toBeGreaterThanOrEqual(2_000);
    expect(readFileSync(t.saved.get('k.txt')!, 'utf8')).toBe('partial\n');
  });
});

describe('trialDeadline', () => {
  it('aborts after the trial timeout and turns the error into a TimeoutError', async () => {
    const t = context(150);
    const { signal, failure } = trialDeadline(t.ctx, 'tool trial t7');
    expect(signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(signal.aborted).toBe(true);
    const error = failure(new Error('killed'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('tool trial t7 took longer than 150 ms');
  });

  it('passes the run abort reason through, and other errors unchanged', () => {
    const t = context();
    const { signal, failure } = trialDeadline(t.ctx, 'tool trial t8');
    const own = new Error('parse failed');
    expect(failure(own)).toBe(own);
    const reason = new Error('user pressed Ctrl-C');
    t.controller.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(failure(own)).toBe(reason);
  });
});
