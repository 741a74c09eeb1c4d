import { describe, expect, it } from 'vitest';
import { batchLines, ipBatch } from './ip-batch.js';

describe('ip -batch lines', () => {
  it('joins each command into one line', () => {
    expect(batchLines([['link', 'set', 'dev', 'nbabc123h0', 'up'], ['addr', 'add', '10.203.0.2/24', 'dev', 'eth0']]))
      .toBe('link set dev nbabc123h0 up\naddr add 10.203.0.2/24 dev eth0\n');
  });

  it('refuses a word ip would split, unquote or read as a comment', () => {
    for (const word of ['a b', 'a\nlink del dev eth0', '"x"', "it's", 'a\\b', '#x', '']) {
      expect(() => batchLines([['link', 'set', 'dev', word, 'up']]), JSON.stringify(word)).toThrow(/refusing the word/);
    }
  });

  it('names the command that failed, with ip\'s own message, and runs none after it', async () => {
    // Reading only: `link show` of a missing device fails on the second line; the third never runs.
    const error = await ipBatch([['link', 'show', 'dev', 'lo'], ['link', 'show', 'dev', 'nbnosuchdev0'], ['link', 'show', 'dev', 'nbnosuchdev1']]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^ip link show dev nbnosuchdev0 failed \(exit 1\): .*nbnosuchdev0/s);
    expect((error as Error).message).not.toMatch(/nbnosuchdev1|Command failed/);
  });
});
