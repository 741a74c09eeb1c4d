import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secret, secretPaths, z } from '@netbench/plugin-api';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../issues/spec-error.js';
import { createRegistry } from '../registry/create-registry.js';
import { loadSpec } from './load-spec.js';

const cli = fileURLToPath(new URL('../../../cli', import.meta.url));
const registry = createRegistry({ searchDirs: [cli], userPlugins: false });
const dir = mkdtempSync(join(tmpdir(), 'nbt-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PASS_FILE = join(dir, 'jump-pass');
writeFileSync(PASS_FILE, 'from-a-file\n');
process.env['NBT_SECRET_PASS'] = 'from-the-env';

const spec = (extra = '') => `name: secrets
hosts:
  a:
    cloud: static
    address: 127.0.0.1
    passphrase: literal-hunter2
  b:
    cloud: static
    address: 127.0.0.2
    passphrase: \${env:NBT_SECRET_PASS}
    jump: { address: 127.0.0.3, passphrase: "\${file:${PASS_FILE}}" }
benchmarks:
  - { tool: ping, client: a, server: b }
publish:
  - type: postgres
    url: postgres://nb:s3cret-pw@127.0.0.1:1/netbench
${extra}`;

describe('secret fields are marked in the schema', () => {
  it('finds them through optional, default, union, array, record and refine', () => {
    const schema = z
      .strictObject({
        a: secret(z.string()).optional().describe('x'),
        b: z.array(z.strictObject({ c: secret(z.string()) })),
        d: z.union([z.boolean(), z.strictObject({ e: secret(z.string()).default('') })]),
        f: z.record(z.string(), secret(z.string())),
        password: z.string(), // a name is not a mark
      })
      .refine(() => true);
    expect(secretPaths(schema)).toEqual([['a'], ['b', '*', 'c'], ['d', 'e'], ['f', '*']]);
  });
});

describe('a spec with secrets', () => {
  it('plugins get the values (literal, ${env:…}, ${file:…}); the stored text has none of them', async () => {
    const { spec: loaded } = await loadSpec({ text: spec(), file: 'secrets.yaml' }, registry);
    const hosts = loaded.hosts as Record<string, Record<string, unknown>>;
    expect(hosts['a']?.['passphrase']).toBe('literal-hunter2');
    expect(hosts['b']?.['passphrase']).toBe('from-the-env');
    expect((hosts['b']?.['jump'] as Record<string, unknown> | undefined)?.['passphrase']).toBe('from-a-file');
    const text = loaded.source!.text;
    expect(text).not.toMatch(/hunter2|s3cret|from-the-env|from-a-file/);
    expect(text).toContain('passphrase: "[redacted]"');
    expect(text).toContain('url: "[redacted]"');
    expect(text).toContain('${env:NBT_SECRET_PASS}'); // a reference is not a secret
  });

  it('a reference that cannot be read is a spec error at its field', async () => {
    const error = await loadSpec({ text: spec().replace('NBT_SECRET_PASS', 'NBT_NOT_SET_ANYWHERE').replace(PASS_FILE, '/nonexistent/pass'), file: 'secrets.yaml' }, registry).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message.split('\n')).toEqual([
      'secrets.yaml:10:17  hosts.b.passphrase  ${env:NBT_NOT_SET_ANYWHERE}: the environment variable NBT_NOT_SET_ANYWHERE is not set',
      'secrets.yaml:11:45  hosts.b.jump.passphrase  ${file:/nonexistent/pass}: cannot read it (ENOENT)',
    ]);
  });

  it('references are not read in fields that are not secret', async () => {
    // `user` is not a secret field: its value is the text as written (an address field would refuse it as no address).
    const { spec: loaded } = await loadSpec(
      { text: spec().replace('address: 127.0.0.1', 'address: 127.0.0.1\n    user: "${env:NBT_SECRET_PASS}"'), file: 'secrets.yaml' },
      registry,
    );
    expect((loaded.hosts as Record<string, Record<string, unknown>>)['a']?.['user']).toBe('${env:NBT_SECRET_PASS}');
  });
});
