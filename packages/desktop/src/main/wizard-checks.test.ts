import { join } from 'node:path';
import { createRegistry } from '@netbench/core';
import { describe, expect, it } from 'vitest';
import { wizardChecks } from './wizard-checks.js';

const repo = join(import.meta.dirname, '../../../..');
const registry = createRegistry({ searchDirs: [join(repo, 'packages/cli')], userPlugins: false });

describe('wizardChecks: before Run, without network calls', () => {
  it('reports what the local lab can shape, as the local plugin probes it', async () => {
    const checks = await wizardChecks(registry, []);
    expect(checks.clouds).toEqual([]);
    for (const capability of [checks.shaping.rate, checks.shaping.netem]) {
      expect(typeof capability.ok).toBe('boolean');
      // A reason either way: "available", or why not (no netem module, no namespaces).
      expect(capability.detail).not.toBe('');
    }
  });

  it("runs each picked cloud's offline doctor checks (credentials, project) and names an unknown cloud", async () => {
    const saved = { ...process.env };
    // Credentials from the environment, as the checks read them; no call reaches any cloud.
    process.env['AWS_ACCESS_KEY_ID'] = 'AKIAEXAMPLEEXAMPLE12';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'x'.repeat(40);
    delete process.env['GOOGLE_CLOUD_PROJECT'];
    try {
      const checks = await wizardChecks(registry, ['aws', 'gcp', 'nosuchcloud', 'local']);
      expect(checks.clouds.map((c) => c.cloud)).toEqual(['aws', 'gcp', 'nosuchcloud']);
      const aws = checks.clouds[0]!.checks.find((c) => c.name === 'credentials');
      expect(aws).toMatchObject({ ok: true });
      expect(aws!.detail).toContain('AWS_ACCESS_KEY_ID');
      expect(checks.clouds[1]!.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['credentials', 'project']));
      expect(checks.clouds[2]!.checks[0]).toMatchObject({ ok: false });
    } finally {
      process.env = saved;
    }
  });
});
