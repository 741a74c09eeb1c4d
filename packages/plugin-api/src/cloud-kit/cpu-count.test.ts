import { expect, it } from 'vitest';
import { readCpuCount } from './cpu-count.js';

it('reads nproc as the cpu_count label, and nothing it cannot trust', async () => {
  const seen: (readonly string[])[] = [];
  const answer = (code: number | null, stdout: string) => async (argv: readonly string[]) => {
    seen.push(argv);
    return { code, stdout, stderr: '' };
  };
  await expect(readCpuCount(answer(0, '2\n'))).resolves.toBe('2');
  expect(seen[0]).toEqual(['nproc']);
  await expect(readCpuCount(answer(0, '0\n'))).resolves.toBeUndefined();
  await expect(readCpuCount(answer(127, 'sh: nproc: not found'))).resolves.toBeUndefined();
  await expect(readCpuCount(answer(0, 'two'))).resolves.toBeUndefined();
  await expect(
    readCpuCount(async () => {
      throw new Error('connection lost');
    }),
  ).resolves.toBeUndefined();
});
