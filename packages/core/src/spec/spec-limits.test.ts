import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { TestResolver } from './__fixtures__/test-plugins.js';
import { loadSpec } from './load-spec.js';
import { MAX_SPEC_BYTES } from './spec-limits.js';

const GOOD = `name: limits
hosts:
  client: { cloud: local }
  server: { cloud: local }
benchmarks:
  - tool: netperf
    client: client
    server: server
`;

/** The spec must fail with a SpecError (exit 2) whose lines are returned; any other exception fails the test. */
async function problems(input: { text: string } | { file: string }, sets?: string[]): Promise<string[]> {
  try {
    await loadSpec('text' in input ? { text: input.text, file: 'spec.yaml' } : input, new TestResolver(), { sets });
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    expect(error.exitCode).toBe(2);
    return error.message.split('\n');
  }
  throw new Error('the spec loaded, but it should have failed');
}

describe('specs that used to crash are spec errors with file:line:col (exit 2)', () => {
  test('an alias to an undefined anchor', async () => {
    const lines = await problems({ text: `${GOOD}    tests: *nope\n` });
    expect(lines).toEqual(['spec.yaml:9:12  alias *nope refers to no anchor (define &nope before using it)']);
  });

  test('an alias bomb stops at the alias-count limit', async () => {
    const rows = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++)
      rows.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const lines = await problems({ text: `${GOOD}${rows.join('\n')}\n` });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^spec\.yaml:10:\d+  YAML aliases expand to too much data/);
  });

  test('a host named __proto__', async () => {
    const text = GOOD.replace('  server: { cloud: local }', '  __proto__: { cloud: local }').replace('server: server', 'server: __proto__');
    const lines = await problems({ text });
    expect(lines[0]).toBe("spec.yaml:4:3  hosts.__proto__  '__proto__' cannot be used as a name or key (it is reserved in JavaScript objects)");
  });

  test('a value that contains itself, from the file and from --set', async () => {
    const inFile = await problems({ text: GOOD.replace('  client: { cloud: local }', '  client: &c { cloud: local, x: *c }') });
    expect(inFile[0]).toMatch(/^spec\.yaml:3:\d+  hosts\.client\.x  this value contains itself/);
    const fromSet = await problems({ text: GOOD }, ['hosts.server=&s {cloud: local, x: *s}']);
    expect(fromSet[0]).toMatch(/^spec\.yaml:4:\d+  hosts\.server\.x  this value contains itself.*\(value from --set\)$/);
  });

  test('nesting deeper than the limit', async () => {
    const lines = await problems({ text: `${GOOD}    deep: ${'['.repeat(200)}${']'.repeat(200)}\n` });
    expect(lines.some((line) => /^spec\.yaml:9:\d+  .* the spec nests deeper than 64 levels$/.test(line))).toBe(true);
  });

  test('a deeply nested PKB filter', async () => {
    const filter = `${'('.repeat(500)}True${')'.repeat(500)}`;
    const text = `netperf:\n  flag_matrix: m\n  flag_matrix_defs:\n    m:\n      netperf_benchmarks: [TCP_RR]\n  flag_matrix_filters:\n    m: "${filter}"\n`;
    const lines = await problems({ text });
    expect(lines.join('\n')).toMatch(/^spec\.yaml:7:\d+  netperf\.flag_matrix_filters\.m  .*nests deeper than 100 levels/);
  });
});

describe('spec size is capped', () => {
  test(`a file over ${MAX_SPEC_BYTES} bytes is refused before it is parsed`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netbench-limits-'));
    const file = join(dir, 'big.yaml');
    writeFileSync(file, `${GOOD}${'#'.repeat(MAX_SPEC_BYTES)}\n`);
    const lines = await problems({ file });
    expect(lines).toEqual([`${file}:1:1  (spec)  the spec is 1.0 MiB; the limit is 1 MiB (a spec is a few KiB; generate big matrices with 'matrix' instead)`]);
  });

  test('spec text over the limit is refused too', async () => {
    const lines = await problems({ text: `${GOOD}#${'x'.repeat(MAX_SPEC_BYTES)}\n` });
    expect(lines[0]).toMatch(/^spec\.yaml:1:1  \(spec\)  the spec is 1\.0 MiB; the limit is 1 MiB/);
  });
});

describe('terminal escape sequences in spec values are shown escaped', () => {
  test('an unknown host name with ESC and OSC sequences', async () => {
    const text = GOOD.replace('server: server', 'server: "srv\\e]0;pwned\\a\\e[2J"');
    const lines = await problems({ text });
    expect(lines.join('\n')).not.toMatch(/[\u001b\u0007]/);
    expect(lines.join('\n')).toContain("unknown host 'srv\\x1b]0;pwned\\x07\\x1b[2J'");
  });
});

describe('nesting and aliases past the limits are refused without the work they would cost', () => {
  test('20,000 aliases: the scan stops at the first alias past the limit (it used to resolve each against the whole document)', async () => {
    const text = `${GOOD}anchors:\n  a: &a 1\nlist:\n${'  - *a\n'.repeat(20_000)}`;
    // GOOD has 8 lines; anchors 9-10, list 11; alias n is on line 11 + n: the 1,001st, line 1012, is where it stops.
    expect(await problems({ text })).toEqual([`spec.yaml:1012:5  YAML aliases expand to too much data (more than 1000 alias expansions); write the values out or use 'matrix'`]);
  });

  test('5,000-deep flow nesting, 1,000-deep block nesting, and a --set value: the documented limit, not a stack overflow', async () => {
    const flow = await problems({ text: `${GOOD}deep: ${'['.repeat(5000)}${']'.repeat(5000)}\n` });
    expect(flow).toEqual(['spec.yaml:9:134  (spec)  the spec nests deeper than 64 levels']);
    let block = `${GOOD}deep:\n`;
    for (let i = 1; i <= 1000; i++) block += `${' '.repeat(i)}k:\n`;
    expect(await problems({ text: block })).toEqual([expect.stringMatching(/^spec\.yaml:\d+:\d+ {2}\(spec\) {2}the spec nests deeper than 64 levels$/)]);
    expect(await problems({ text: GOOD }, [`deep=${'{a: '.repeat(3000)}1${'}'.repeat(3000)}`])).toEqual([expect.stringMatching(/ {2}the value nests deeper than 64 levels$/)]);
    // Between the exact limit and the text scan's bound: the exact check on the data.
    expect(await problems({ text: `${GOOD}deep: ${'['.repeat(70)}${']'.repeat(70)}\n` })).toEqual([expect.stringMatching(/the spec nests deeper than 64 levels$/)]);
  });
});
