// A tool that checks fine and then throws in the middle of its trial.
import { definePlugin, ParseError, z } from '@netbench/plugin-api';

export default definePlugin({
  kind: 'tool',
  name: 'crashtool',
  version: '0.0.1',
  schema: z.strictObject({}),
  trials: () => [{ test: 'crash', params: {}, estimatedSeconds: 0 }],
  async check() {
    return { version: '0.0.1', features: {} };
  },
  async run(trial) {
    await trial.client.exec(['true']);
    throw new Error('crashtool: exploded mid-trial');
  },
  parse(_raw, options) {
    throw new ParseError('crashtool prints nothing to parse', options?.source);
  },
});
