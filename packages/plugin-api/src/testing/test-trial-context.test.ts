// testTrialContext: what a plugin saves, reports and warns is recorded, the
// controller really stops a running process, dispose removes the folder.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processHost } from '../transport/process-host.js';
import { testTrialContext } from './index.js';

const local = processHost({ id: 'local', name: 'local', cloud: 'local', internalIp: '127.0.0.1' });

describe('testTrialContext', () => {
  it('saves raw outputs as files in its own run folder, in order, and dispose removes the folder', async () => {
    const t = testTrialContext();
    const other = testTrialContext();
    try {
      expect(t.ctx.runDir).not.toBe(other.ctx.runDir);
      expect(existsSync(t.ctx.runDir)).toBe(true);
      const out = (await local.exec(['seq', '1', '3'])).stdout;
      const first = await t.ctx.saveRaw('tool-client.txt', out);
      await t.ctx.saveRaw('tool-server.txt', 'listening\n');
      // As the engine keeps raw outputs: raw/<trial>-<name> in the run folder.
      expect(dirname(first)).toBe(join(t.ctx.runDir, 'raw'));
      expect(basename(first)).toBe('t0001-tool-client.txt');
      expect(readFileSync(first, 'utf8')).toBe('1\n2\n3\n');
      expect([...t.saved.keys()]).toEqual(['tool-client.txt', 'tool-server.txt']);
      expect(readFileSync(t.saved.get('tool-server.txt')!, 'utf8')).toBe('listening\n');
      expect(other.saved.size).toBe(0);
    } finally {
      t.dispose();
      other.dispose();
    }
    expect(existsSync(t.ctx.runDir)).toBe(false);
    expect(existsSync(other.ctx.runDir)).toBe(false);
    t.dispose(); // again: no error
  });

  it('records progress and warnings in order, dropping debug and info', () => {
    const t = testTrialContext();
    try {
      t.ctx.progress(0);
      t.ctx.progress(0.5, '1/2 s');
      t.ctx.log.debug('argv: tool -c 2');
      t.ctx.log.info('started');
      t.ctx.log.warn('no replies (3 sent)');
      t.ctx.log.warn('clock skew');
      t.ctx.progress(1, '2/2 s');
      expect(t.progress).toStrictEqual([{ fraction: 0 }, { fraction: 0.5, message: '1/2 s' }, { fraction: 1, message: '2/2 s' }]);
      expect(t.warnings).toEqual(['no replies (3 sent)', 'clock skew']);
    } finally {
      t.dispose();
    }
  });

  it('aborting the controller stops a running process with the given reason', async () => {
    const t = testTrialContext();
    try {
      const started = Date.now();
      const running = local.exec(['sleep', '30'], { signal: t.ctx.signal });
      setTimeout(() => t.controller.abort(new Error('user pressed Ctrl-C')), 200);
      await expect(running).rejects.toThrow('user pressed Ctrl-C');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(t.ctx.signal.aborted).toBe(true);
    } finally {
      t.dispose();
    }
  });

  it('passes timeoutMs on (default 30 s) and leaves the deadline to the plugin', async () => {
    const t = testTrialContext(50);
    try {
      expect(t.ctx.timeoutMs).toBe(50);
      const byDefault = testTrialContext();
      byDefault.dispose();
      expect(byDefault.ctx.timeoutMs).toBe(30_000);
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(t.ctx.signal.aborted).toBe(false);
    } finally {
      t.dispose();
    }
  });
});
