// A publisher whose backend hangs until a file appears: the run can be killed
// while it publishes. Each call appends a line to `log` (attempt, then published).
import { appendFileSync, existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { definePlugin, z } from '@netbench/plugin-api';

export default definePlugin({
  kind: 'publisher',
  name: 'stall',
  version: '0.0.1',
  schema: z.strictObject({ release: z.string(), log: z.string() }),
  async publish(record, samples, settings, ctx) {
    appendFileSync(settings.log, `attempt ${record.runId}\n`);
    while (!existsSync(settings.release)) {
      if (ctx.signal?.aborted) throw new Error('stall: aborted');
      await sleep(50);
    }
    appendFileSync(settings.log, `published ${record.runId} ${samples.length}\n`);
    return { count: samples.length };
  },
});
