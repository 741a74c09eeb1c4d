import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deeperThan } from './text-depth.js';

describe('the nesting of a YAML text, without parsing it', () => {
  it('counts flow brackets and block indentation, and where the bound is passed', () => {
    expect(deeperThan('a: [[[1]]]', 3)).toEqual({ depth: 4, offset: 5 });
    expect(deeperThan('a: [[[1]]]', 4)).toBeUndefined();
    expect(deeperThan('a:\n  b:\n    c:\n      - - - 1\n', 5)).toEqual({ depth: 7, offset: 21 });
  });

  it('does not count brackets in quotes, comments or block scalars', () => {
    expect(deeperThan(`a: "[[[[[[["\nb: '{{{{{{'\nc: 1 # [[[[[[[[\nd: |\n  [[[[[[[[[[\n      {{{{{{{{{{\ne: x`, 2)).toBeUndefined();
  });

  it('passes every example and scenario spec of this repository with room to spare', () => {
    const root = join(import.meta.dirname, '../../../..');
    const dirs = ['examples', 'tests/scenarios', 'tests/fixtures/pkb'];
    const files = dirs.flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(root, dir, f)),
    );
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) expect(deeperThan(readFileSync(file, 'utf8'), 24), file).toBeUndefined();
  });
});
