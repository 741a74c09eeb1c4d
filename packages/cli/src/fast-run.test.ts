import { describe, expect, it } from 'vitest';
import Run from './commands/run.js';
import { FAST_RUN_CHOICES, FAST_RUN_OPTIONS, parseRunArgs } from './fast-run.js';

describe('the fast path of netbench run', () => {
  it('knows exactly the flags of the oclif command, with their kinds, choices and defaults', () => {
    const oclif = { ...Run.baseFlags, ...Run.flags, json: { type: 'boolean' } } as Record<
      string,
      { type: string; multiple?: boolean; options?: readonly string[]; default?: unknown; char?: string }
    >;
    expect(Object.keys(FAST_RUN_OPTIONS).sort()).toEqual(Object.keys(oclif).sort());
    for (const [name, flag] of Object.entries(oclif)) {
      const fast = FAST_RUN_OPTIONS[name as keyof typeof FAST_RUN_OPTIONS];
      expect(fast.type === 'boolean' ? 'boolean' : 'option', name).toBe(flag.type === 'boolean' ? 'boolean' : 'option');
      expect('multiple' in fast && fast.multiple === true, name).toBe(flag.multiple === true);
      // No short flags: the fast path would not know them.
      expect(flag.char, name).toBeUndefined();
      const choices = FAST_RUN_CHOICES[name as keyof typeof FAST_RUN_CHOICES];
      expect(choices?.options, name).toEqual(flag.options);
      expect(choices?.default, name).toEqual(flag.type === 'boolean' ? undefined : flag.default);
    }
  });

  it('reads a spec and flags as oclif would', () => {
    expect(parseRunArgs(['spec.yaml', '--runs-dir', '/r', '--progress=none', '--set', 'a=1', '--set', 'b=2', '--keep'])).toEqual({
      spec: 'spec.yaml',
      flags: { 'runs-dir': '/r', progress: 'none', set: ['a=1', 'b=2'], keep: true },
      json: false,
    });
    expect(parseRunArgs(['--resume', '20261125-043000-k3f9a2', '--json'])).toEqual({ spec: undefined, flags: { resume: '20261125-043000-k3f9a2', progress: 'auto' }, json: true });
    expect(parseRunArgs(['spec.yaml', '--log-level', 'debug'])?.flags).toEqual({ progress: 'auto' });
  });

  it('declines, before anything runs, whatever oclif must decide', () => {
    for (const argv of [
      ['spec.yaml', '--help'],
      ['-h'],
      ['spec.yaml', '--', '--keep'],
      ['spec.yaml', '--bogus'],
      ['spec.yaml', '-k'],
      ['spec.yaml', '--no-keep'],
      ['spec.yaml', '--keep=yes'],
      ['a.yaml', 'b.yaml'],
      ['spec.yaml', '--progress', 'fancy'],
      ['spec.yaml', '--log-level', 'loud'],
      ['spec.yaml', '--db'],
      // oclif may read a word after a repeatable flag as another of its values.
      ['--set', 'a=1', 'spec.yaml'],
      // oclif refuses a flag's value that looks like a flag.
      ['spec.yaml', '--db', '--keep'],
    ])
      expect(parseRunArgs(argv), argv.join(' ')).toBeUndefined();
  });
});
