import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellCommand, shellExports, shellQuote } from './shell-quote.js';
import { HOSTILE_ARGS } from './test-support/hostile-args.js';

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellQuote('netperf')).toBe('netperf');
    expect(shellQuote('-P')).toBe('-P');
    expect(shellQuote('10.0.0.1:5201')).toBe('10.0.0.1:5201');
    expect(shellQuote('A=b')).toBe("'A=b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
  });

  it('round-trips every hostile value through a real POSIX shell as one argument', () => {
    for (const shell of ['sh', 'bash']) {
      const out = execFileSync(shell, ['-c', shellCommand(['printf', '%s\\0', ...HOSTILE_ARGS])]);
      expect(out.toString().split('\0').slice(0, -1)).toEqual(HOSTILE_ARGS);
    }
  });

  it('refuses NUL bytes and bad environment names', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
    expect(() => shellExports({ 'A;rm': 'x' })).toThrow(/invalid environment variable name/);
    expect(shellExports({ LANG: "C'; echo" })).toBe(`export LANG='C'\\''; echo'; `);
    expect(() => shellCommand([])).toThrow(/empty/);
  });
});
