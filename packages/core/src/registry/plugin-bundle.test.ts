import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Mtime, pluginBundle } from './plugin-bundle.js';

const dir = '/p/pkg';
const entry = join(dir, 'dist/index.js');
const pkg = (bundle: unknown) => ({ name: '@x/plugin-y', netbench: { kind: 'tool', name: 'y', bundle } });
const times =
  (files: Record<string, number>): Mtime =>
  (path) =>
    files[path];

describe('pluginBundle', () => {
  const fresh = times({ [join(dir, 'dist/index.bundle.js')]: 20, [entry]: 10, [join(dir, 'tsconfig.tsbuildinfo')]: 10 });

  it('stands in for the entry when it is at least as new as the entry and the build info', () => {
    expect(pluginBundle(dir, pkg('./dist/index.bundle.js'), entry, fresh)).toBe(join(dir, 'dist/index.bundle.js'));
    // A published package has no build info: the entry's time decides.
    expect(pluginBundle(dir, pkg('./dist/index.bundle.js'), entry, times({ [join(dir, 'dist/index.bundle.js')]: 20, [entry]: 10 }))).toBe(join(dir, 'dist/index.bundle.js'));
  });

  it('is passed over when stale (tsc ran after it), missing, or not declared', () => {
    expect(
      pluginBundle(dir, pkg('./dist/index.bundle.js'), entry, times({ [join(dir, 'dist/index.bundle.js')]: 20, [entry]: 10, [join(dir, 'tsconfig.tsbuildinfo')]: 30 })),
    ).toBeUndefined();
    expect(pluginBundle(dir, pkg('./dist/index.bundle.js'), entry, times({ [join(dir, 'dist/index.bundle.js')]: 20, [entry]: 25 }))).toBeUndefined();
    expect(pluginBundle(dir, pkg('./dist/index.bundle.js'), entry, times({ [entry]: 10 }))).toBeUndefined();
    expect(pluginBundle(dir, pkg(undefined), entry, fresh)).toBeUndefined();
    expect(pluginBundle(dir, { name: 'x' }, entry, fresh)).toBeUndefined();
  });

  it("refuses a bundle outside the package, outside the entry's folder, or not a .js file", () => {
    const anywhere: Mtime = () => 1;
    expect(pluginBundle(dir, pkg('./../other/dist/index.bundle.js'), entry, anywhere)).toBeUndefined();
    expect(pluginBundle(dir, pkg('/etc/passwd.js'), entry, anywhere)).toBeUndefined();
    expect(pluginBundle(dir, pkg('./index.bundle.js'), entry, anywhere)).toBeUndefined();
    expect(pluginBundle(dir, pkg('./dist/index.bundle.mjs'), entry, anywhere)).toBeUndefined();
    expect(pluginBundle(dir, pkg('./dist/sub/index.bundle.js'), entry, anywhere)).toBeUndefined();
    expect(pluginBundle(dir, pkg(42), entry, anywhere)).toBeUndefined();
  });
});
