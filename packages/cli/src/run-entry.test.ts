import { describe, expect, it } from 'vitest';
import { runEntry } from './run-entry.js';

const base = new URL('file:///opt/netbench/packages/cli/dist/');
const at = (times: Record<string, number>) => (url: URL) => times[url.pathname];
const BUNDLE = '/opt/netbench/packages/cli/dist/bundle/run.cjs';
const builds = (t: number) => ({
  '/opt/netbench/packages/cli/tsconfig.tsbuildinfo': t,
  '/opt/netbench/packages/core/tsconfig.tsbuildinfo': t,
  '/opt/netbench/packages/results/tsconfig.tsbuildinfo': t,
  '/opt/netbench/packages/report/tsconfig.tsbuildinfo': t,
  '/opt/netbench/packages/plugin-api/tsconfig.tsbuildinfo': t,
});

describe('which module runs netbench run', () => {
  it('the bundle when it is at least as new as every package compiled into it', () => {
    expect(runEntry(base, at({ [BUNDLE]: 200, ...builds(100) })).pathname).toBe(BUNDLE);
    expect(runEntry(base, at({ [BUNDLE]: 100, ...builds(100) })).pathname).toBe(BUNDLE);
  });

  it('the compiled code when one package was compiled after the bundle was made', () => {
    expect(runEntry(base, at({ [BUNDLE]: 200, ...builds(100), '/opt/netbench/packages/core/tsconfig.tsbuildinfo': 300 })).pathname).toBe(
      '/opt/netbench/packages/cli/dist/fast-run.js',
    );
  });

  it('the compiled code without a bundle; the bundle of a published CLI, which has no build info', () => {
    expect(runEntry(base, at(builds(100))).pathname).toBe('/opt/netbench/packages/cli/dist/fast-run.js');
    expect(runEntry(base, at({ [BUNDLE]: 50 })).pathname).toBe(BUNDLE);
  });

  it('the compiled code when plugin-api was compiled after the bundle (the bundle holds it), or when Node cannot hand plugins the bundled zod and plugin-api', () => {
    expect(runEntry(base, at({ [BUNDLE]: 200, ...builds(100), '/opt/netbench/packages/plugin-api/tsconfig.tsbuildinfo': 300 })).pathname).toBe(
      '/opt/netbench/packages/cli/dist/fast-run.js',
    );
    expect(runEntry(base, at({ [BUNDLE]: 200, ...builds(100) }), false).pathname).toBe('/opt/netbench/packages/cli/dist/fast-run.js');
  });
});
