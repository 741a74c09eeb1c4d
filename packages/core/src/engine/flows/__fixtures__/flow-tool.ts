// A real tool plugin that takes part in synchronized flows: after the
// barrier it runs `sleep` on the client, reports one interval sample and a
// rate that says which flow it was (10 × (index + 1)). `fail` names the
// flow index that fails, `failAt` whether before the barrier or after it.
import { z } from '@netbench/plugin-api';
import { definePlugin, RetryableError } from '@netbench/plugin-api';

const schema = z.strictObject({
  seconds: z.number().min(0).default(0.2),
  fail: z.int().min(0).optional(),
  failAt: z.enum(['setup', 'running', 'retryable']).default('setup'),
  /** Flow index that sleeps this long instead (a straggler). */
  straggle: z.int().min(0).optional(),
});

export default definePlugin({
  kind: 'tool',
  name: 'flow-echo',
  version: '0.0.1',
  schema,
  trials: (block: z.infer<typeof schema>) => [{
    test: 'sleep',
    params: { seconds: block.seconds, ...(block.fail !== undefined ? { fail: block.fail, failAt: block.failAt } : {}), ...(block.straggle !== undefined ? { straggle: block.straggle } : {}) },
    estimatedSeconds: block.seconds,
  }],
  async check(host, ctx) {
    const result = await host.exec(['sleep', '0'], { signal: ctx.signal });
    if (result.code !== 0) throw new Error(result.stderr);
    return { version: '1', features: {} };
  },
  flows: {
    intervals: true,
    combine: (metric) => (metric === 'rate' ? 'sum' : metric === 'latency' ? 'mean' : undefined),
  },
  async run(trial, ctx) {
    const flow = ctx.flow;
    if (!flow) throw new Error('flow-echo runs only as a flow');
    const seconds = trial.params['straggle'] === flow.index ? 600 : Number(trial.params['seconds']);
    const failing = trial.params['fail'] === flow.index;
    if (failing && trial.params['failAt'] === 'setup') throw new Error(`flow ${flow.index} could not set up`);
    await flow.release();
    const sleeper = trial.client.spawn(['sleep', String(seconds)], { signal: ctx.signal });
    flow.started();
    flow.interval({ metric: 'rate', value: 10 * (flow.index + 1), unit: 'per_second', timestamp: Date.now() });
    if (failing) {
      await ctx.saveRaw('partial.txt', `flow ${flow.index} started and failed`);
      if (trial.params['failAt'] === 'retryable' && trial.attempt === 0) throw new RetryableError('busy on the first attempt');
      if (trial.params['failAt'] === 'running') throw new Error(`flow ${flow.index} broke while running`);
    }
    const exited = await sleeper.exited;
    await ctx.saveRaw('done.txt', `code ${exited.code} signal ${exited.signal}`);
    ctx.signal.throwIfAborted();
    return {
      samples: [
        { metric: 'rate', value: 10 * (flow.index + 1), unit: 'per_second' },
        { metric: 'latency', value: flow.index + 1, unit: 'ms' },
        { metric: 'note', value: 1, unit: 'count' },
      ],
    };
  },
  parse: () => [],
});
