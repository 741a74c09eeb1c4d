import type { Host } from '@netbench/plugin-api';
import { newRunId, TimeoutError } from '@netbench/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerClient } from './docker-client.js';
import { execHost } from './exec-host.js';
import { DEFAULT_IMAGE } from './host-schema.js';
import { containerName, runLabels } from './naming.js';
import { dockerReady } from './test-support/docker-ready.js';

const ready = await dockerReady();

describe.runIf(ready)('the Docker exec transport', () => {
  const docker = dockerClient();
  const runId = newRunId();
  const name = containerName(runId, 'exec');
  let host: Host;

  beforeAll(async () => {
    const container = await docker.createContainer({
      name,
      Image: DEFAULT_IMAGE,
      Entrypoint: ['sleep'],
      Cmd: ['infinity'],
      Labels: runLabels(runId, 'exec'),
      HostConfig: { NetworkMode: 'none' },
    });
    await container.start();
    host = execHost({ docker, container: name, id: 'exec', name: 'exec', cloud: 'docker', internalIp: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    await docker
      .getContainer(name)
      .remove({ force: true })
      .catch(() => {});
  });

  it('runs argv without a shell, with exit codes, stdout and stderr apart, stdin and env', async () => {
    expect(await host.exec(['echo', 'a; echo "$HOME" `id`'])).toMatchObject({ stdout: 'a; echo "$HOME" `id`\n', code: 0, signal: null });
    expect(await host.exec(['sh', '-c', 'echo out; echo err >&2; exit 7'])).toMatchObject({ stdout: 'out\n', stderr: 'err\n', code: 7 });
    expect((await host.exec(['cat'], { stdin: 'x'.repeat(100_000) })).stdout).toHaveLength(100_000);
    expect((await host.exec(['sh', '-c', 'echo "$NB_TEST"'], { env: { NB_TEST: 'a b;c' } })).stdout).toBe('a b;c\n');
    expect((await host.exec(['no-such-program'])).code).toBe(127);
  });

  it('kills a spawned process with the signal asked for, and reports it', async () => {
    const proc = host.spawn(['sleep', '600']);
    proc.kill('SIGINT');
    expect(await proc.exited).toMatchObject({ code: null, signal: 'SIGINT' });
    expect((await host.exec(['sh', '-c', 'pgrep -x sleep | wc -l'])).stdout.trim()).toBe('1'); // only the container's own
  });

  it('stops a command on timeout and on abort', async () => {
    await expect(host.exec(['sleep', '600'], { timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    const running = host.exec(['sleep', '600'], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 200);
    await expect(running).rejects.toThrow('stop');
    expect((await host.exec(['sh', '-c', 'pgrep -x sleep | wc -l'])).stdout.trim()).toBe('1');
  });

  it('streams a spawned process output while it runs', async () => {
    const proc = host.spawn(['sh', '-c', 'echo first; sleep 600']);
    const first = await new Promise<string>((resolve) => proc.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    expect(first).toBe('first\n');
    proc.kill();
    expect((await proc.exited).signal).toBe('SIGTERM');
  });
});
