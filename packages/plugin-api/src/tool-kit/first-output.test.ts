import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { firstOutput } from './cpu-placement.js';

it('resolves at the first output, or when the output ends, or after the wait given', async () => {
  const printing = new PassThrough();
  let settled = false;
  const first = firstOutput(printing).then(() => {
    settled = true;
  });
  await new Promise((r) => setImmediate(r));
  expect(settled).toBe(false);
  printing.write('PING 10.0.0.2\n');
  await first;
  expect(settled).toBe(true);

  const silent = new PassThrough();
  const ended = firstOutput(silent);
  silent.end();
  await expect(ended).resolves.toBeUndefined();

  // A tool that prints only at its end: the wait bounds it (the stream never writes here).
  await expect(firstOutput(new PassThrough(), 20)).resolves.toBeUndefined();
});
