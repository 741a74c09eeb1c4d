import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../../../..');
// The worker is a file of its own: the built one (npm test builds first), as `netbench ui` runs it.
const { SpecChecker } = (await import(join(repo, 'packages/desktop/dist/main/spec-checker.js'))) as typeof import('./spec-checker.js');

/** A spec that takes the YAML parser a second or more: 800 KB of one flow list (under the 1 MiB limit). */
const heavy = `name: heavy\nhosts:\n  c: { cloud: local }\n  s: { cloud: local }\nbenchmarks:\n  - { tool: ping, client: c, server: s, cpus: { client: 0 } }\nlabels: { note: x }\nnotes: [${Array.from({ length: 130_000 }, (_, i) => i).join(',')}]\n`;

describe("spec checks off the UI server's event loop", () => {
  it('plans a heavy spec in a worker while this thread keeps answering', { timeout: 120_000 }, async () => {
    const checker = new SpecChecker({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });
    try {
      let ticks = 0;
      let done = false;
      const tick = () => {
        ticks += 1;
        if (!done) setTimeout(tick, 1);
      };
      setTimeout(tick, 1);
      const check = await checker.check(heavy);
      done = true;
      // Whatever the spec says of `notes`, the check answered (an issue or a plan) without this thread doing the work.
      expect(typeof check.ok).toBe('boolean');
      // Checked in this thread the loop does not turn while the text is parsed (a tick or two in 1.5 s, measured);
      // in the worker it turns all along.
      expect(ticks).toBeGreaterThan(20);
      const bad = await checker.check('name: [unclosed');
      expect(bad.ok).toBe(false);
    } finally {
      await checker.close();
    }
  });

  it('stops a check that takes longer than its time-out and answers with an issue; the next check gets a new worker', { timeout: 120_000 }, async () => {
    const checker = new SpecChecker({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false }, 50);
    try {
      const slow = await checker.check(heavy);
      expect(slow).toMatchObject({ ok: false, issues: [{ message: expect.stringMatching(/took longer than 0\.05 s and was stopped/) }] });
    } finally {
      await checker.close();
    }
  });

  it("is what the UI server's checkSpec uses when it is given checkWorker (the stand-in registry here knows no plugin)", { timeout: 60_000 }, async () => {
    const { createDesktopApi } = (await import(join(repo, 'packages/desktop/dist/main/desktop-api.js'))) as typeof import('./desktop-api.js');
    const { staticRegistry } = await import('@netbench/core');
    const quickstart = (await import('node:fs')).readFileSync(join(repo, 'examples/quickstart.yaml'), 'utf8');
    const inThread = createDesktopApi({ registry: staticRegistry([]), version: 'test', shell: 'browser' });
    const inWorker = createDesktopApi({
      registry: staticRegistry([]),
      version: 'test',
      shell: 'browser',
      checkWorker: { searchDirs: [join(repo, 'packages/cli')], userPlugins: false },
    });
    try {
      expect((await inThread.api.checkSpec({ text: quickstart })).ok).toBe(false);
      expect((await inWorker.api.checkSpec({ text: quickstart })).ok).toBe(true);
    } finally {
      await inThread.dispose();
      await inWorker.dispose();
    }
  });
});
