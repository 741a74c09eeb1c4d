import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processHost, type ToolHostContext, ToolMissingError } from '@netbench/plugin-api';
import { testTrialContext } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHttp } from './check.js';

// A machine without oha: nginx, ab and wrk as installed (Debian packages), oha neither on PATH nor in the
// install script's cache (HOME is an empty folder, PATH the system's own folders).
let home: string;
let host: ReturnType<typeof processHost>;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'nbt-http-check-'));
  host = processHost({
    id: 'c',
    name: 'c',
    cloud: 'local',
    internalIp: '127.0.0.1',
    prefix: ['env', `HOME=${home}`, 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
  });
});
afterAll(() => rm(home, { recursive: true, force: true }));

const context = (part: Pick<ToolHostContext, 'roles' | 'trials'>): ToolHostContext => {
  const { ctx } = testTrialContext();
  return { runId: ctx.runId, runDir: ctx.runDir, signal: ctx.signal, log: ctx.log, ...part };
};

describe('http check and oha', () => {
  it('refuses in prepare a client host of an oha trial that has no oha, saying how to install it', async () => {
    const error = await checkHttp(host, context({ roles: ['client'], trials: [{ generator: 'wrk' }, { generator: 'oha', rate: 100 }] })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolMissingError);
    expect((error as Error).message).toMatch(
      /^oha is not installed on host c: an oha trial runs its client here; install it with packages\/plugins\/http\/scripts\/install-oha\.sh/,
    );
  });

  it('does not ask for oha where no oha trial runs its client (server host, ab/wrk trials) and keeps it out of the labels', async () => {
    const server = await checkHttp(host, context({ roles: ['server'], trials: [{ generator: 'oha' }] }));
    const wrk = await checkHttp(host, context({ roles: ['client'], trials: [{ generator: 'wrk' }] }));
    expect(server.features).not.toHaveProperty('oha');
    expect(wrk.features).not.toHaveProperty('oha');
    expect(wrk.version).toMatch(/^nginx \S+, ab \S+, wrk \S+$/);
  });

  it('reports oha as missing, with the install script, when there are no trials (netbench doctor)', async () => {
    const info = await checkHttp(host, context({ roles: ['client', 'server'], trials: [] }));
    expect(info.features['oha']).toMatch(/^missing: install it with packages\/plugins\/http\/scripts\/install-oha\.sh/);
  });
});
