import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { checkSpecText } from './check-spec-text.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });

// The editor checks what the user types on every keystroke, on the UI server's event loop.
describe('a spec check in the UI is bounded', () => {
  it('a catastrophic-backtracking filter (RE2 semantics) answers instead of freezing the server', { timeout: 20_000 }, async () => {
    const evil = `${'a'.repeat(40)}!`;
    const text = [
      'name: evil',
      'hosts:',
      '  a: { cloud: local }',
      '  b: { cloud: local }',
      'matrix:',
      `  axes: { s: ["${evil}", "aaaa"] }`,
      '  filter: s.matches("^(a+)+$")',
      'benchmarks:',
      '  - { tool: ping, client: a, server: b, direction: forward, name: "p-${s}" }',
      '',
    ].join('\n');
    const check = await checkSpecText(registry, text);
    expect(check.ok).toBe(true);
    expect(check.ok && check.plan.trials).toHaveLength(1);
  });

  it('a filter RE2 does not accept is an issue with a position', async () => {
    const text = [
      'name: lookahead',
      'hosts:',
      '  a: { cloud: local }',
      '  b: { cloud: local }',
      'matrix:',
      '  axes: { s: [x] }',
      '  filter: s.matches("x(?=y)")',
      'benchmarks:',
      '  - { tool: ping, client: a, server: b }',
      '',
    ].join('\n');
    const check = await checkSpecText(registry, text);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues[0]).toMatchObject({ line: 7, path: 'matrix.filter' });
  });
});
