// The README's command table against the CLI's oclif manifest: every command
// it names exists, and its claim that every command takes `--json` holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages/cli/oclif.manifest.json'), 'utf8')) as { commands: Record<string, { flags?: Record<string, unknown> }> };

/** `netbench results list\|show` → `results:list`, `results:show`; `netbench run SPEC` → `run`. */
function commandIds(cell: string): string[] {
  const words = cell
    .replace(/^`netbench /, '')
    .split('`')[0]!
    .split(' ');
  const [first, second] = words;
  if (second !== undefined && /^[a-z]+(?:\\\|[a-z]+)*$/.test(second) && manifest.commands[`${first}:${second.split('\\|')[0]}`]) {
    return second.split('\\|').map((sub) => `${first}:${sub}`);
  }
  return [first!];
}

it('names only commands that exist, and says truly that every one takes --json', () => {
  const table = readme.slice(readme.indexOf('## Commands'), readme.indexOf('\n\n', readme.indexOf('|---|---|')));
  expect(table).toContain('| command (every one takes `--json`) |');
  const rows = table.split('\n').filter((line) => line.startsWith('| `netbench '));
  expect(rows.length).toBeGreaterThan(10);
  const named = new Set(rows.flatMap((row) => commandIds(row.slice(2))));
  expect([...named]).toEqual(expect.arrayContaining(['run', 'plan', 'schema', 'compare', 'results:list', 'results:trend', 'plugins:new', 'hosts:trust']));
  for (const id of named) expect(Object.keys(manifest.commands), `README names ${id}`).toContain(id);
  const withoutJson = Object.entries(manifest.commands)
    .filter(([, c]) => !c.flags?.['json'])
    .map(([id]) => id);
  expect(withoutJson).toEqual([]);
});
