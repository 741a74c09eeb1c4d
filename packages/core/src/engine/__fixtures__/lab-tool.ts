// A real tool plugin for tests: runs `echo` and `sleep` on the host and turns
// their results into samples. Its trial parameter `mode` picks a behaviour.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from '@netbench/plugin-api';
import { definePlugin } from '@netbench/plugin-api';
import { RetryableError, ToolMissingError } from '@netbench/plugin-api';
import type { Host } from '@netbench/plugin-api';

const MODES = ['ok', 'fail', 'retry', 'hang', 'ignore-signal', 'sleep'] as const;
export type LabMode = (typeof MODES)[number];

const schema = z.strictObject({
  mode: z.enum(MODES).default('ok'),
  seconds: z.number().min(0).default(0),
});

const installedMarker = (ctxRunDir: string, host: Host) => join(ctxRunDir, `lab-echo-installed-${host.id}`);

export default definePlugin({
  kind: 'tool',
  name: 'lab-echo',
  version: '0.0.1',
  schema,
  trials: (params: z.infer<typeof schema>) => [{ test: 'echo', params: { mode: params.mode, seconds: params.seconds }, estimatedSeconds: params.seconds }],
  async check(host, ctx) {
    if (host.labels['tool_missing'] === 'true' && !existsSync(installedMarker(ctx.runDir, host.installHost ?? host))) {
      throw new ToolMissingError('lab-echo', host.id);
    }
    const result = await host.exec(['sleep', '--version'], { signal: ctx.signal });
    const version = /\d+(\.\d+)+/.exec(result.stdout)?.[0];
    if (result.code !== 0 || !version) throw new ToolMissingError('lab-echo', host.id, result.stderr);
    return { version, features: { gnu: result.stdout.includes('GNU') }, command: 'sleep' };
  },
  async install(host, ctx) {
    const result = await host.exec(['touch', installedMarker(ctx.runDir, host)], { signal: ctx.signal });
    if (result.code !== 0) throw new Error(result.stderr);
  },
  async serve(host, _info, ctx) {
    const server = host.spawn(['sleep', '600']);
    server.exited.catch(() => {});
    ctx.log.warn(`lab-echo server on ${host.id} is pid ${server.pid}`);
    return {
      data: { pid: server.pid },
      async stop() {
        server.kill('SIGKILL');
        await server.exited;
      },
    };
  },
  async run(trial, ctx) {
    const mode = trial.params['mode'] as LabMode;
    const seconds = Number(trial.params['seconds']);
    const echoed = await trial.client.exec(['echo', `${trial.id} -> ${trial.target}; attempt ${trial.attempt}`], { signal: ctx.signal });
    await ctx.saveRaw('echo.txt', echoed.stdout);
    ctx.progress(0.5, 'echoed');
    if (mode === 'fail') {
      const failed = await trial.client.exec(['false'], { signal: ctx.signal });
      throw new Error(`false exited with ${failed.code}`);
    }
    if (mode === 'retry' && trial.attempt === 0) throw new RetryableError('port busy (first attempt always is)');
    if (mode === 'hang') await trial.client.exec(['sleep', '600'], { signal: ctx.signal });
    if (mode === 'ignore-signal') await new Promise(() => {});
    if (mode === 'sleep') await trial.client.exec(['sleep', String(seconds)], { signal: ctx.signal });
    ctx.progress(1);
    return {
      samples: [
        { metric: 'echo_time', value: echoed.durationMs, unit: 'ms', labels: { echoed: echoed.stdout.trim(), mode: `tool:${mode}` } },
        { metric: 'answer', value: 42, unit: 'count', timestamp: 1_700_000_000_000 },
      ],
    };
  },
  parse: () => [],
});
