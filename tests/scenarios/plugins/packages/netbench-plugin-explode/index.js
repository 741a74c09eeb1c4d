// A publisher whose backend is down: publish always throws.
import { definePlugin, z } from '@netbench/plugin-api';

export default definePlugin({
  kind: 'publisher',
  name: 'explode',
  version: '0.0.1',
  schema: z.strictObject({}),
  async publish() {
    throw new Error('explode: backend down');
  },
});
