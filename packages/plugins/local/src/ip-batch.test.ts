import { describe, expect, it } from 'vitest';
import { batchLines, ipBatch, ipBatchEach } from './ip-batch.js';

describe('ip -batch lines', () => {
  it('joins each command into one line', () => {
    expect(
      batchLines([
        ['link', 'set', 'dev', 'nbabc123h0', 'up'],
        ['addr', 'add', '10.203.0.2/24', 'dev', 'eth0'],
      ]),
    ).toBe('link set dev nbabc123h0 up\naddr add 10.203.0.2/24 dev eth0\n');
  });

  it('refuses a word ip would split, unquote or read as a comment', () => {
    for (const word of ['a b', 'a\nlink del dev eth0', '"x"', "it's", 'a\\b', '#x', '']) {
      expect(() => batchLines([['link', 'set', 'dev', word, 'up']]), JSON.stringify(word)).toThrow(/refusing the word/);
    }
  });

  it("names the command that failed, with ip's own message, and runs none after it", async () => {
    // Reading only: `link show` of a missing device fails on the second line; the third never runs.
    const error = await ipBatch([
      ['link', 'show', 'dev', 'lo'],
      ['link', 'show', 'dev', 'nbnosuchdev0'],
      ['link', 'show', 'dev', 'nbnosuchdev1'],
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^ip link show dev nbnosuchdev0 failed \(exit 1\): .*nbnosuchdev0/s);
    expect((error as Error).message).not.toMatch(/nbnosuchdev1|Command failed/);
  });

  // All reading only: `link show` of a device that is not there fails; `group NAME` of an unknown group ends ip at once.
  const ok = ['link', 'show', 'dev', 'lo'];
  const missing = (n: number) => ['link', 'show', 'dev', `nbnosuchdev${n}`];

  it('tells which command failed and which were not run when ip stops at the first failure', async () => {
    const outcomes = await ipBatchEach([ok, missing(0), ok]);
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]?.message).toMatch(/^ip link show dev nbnosuchdev0 failed \(exit 1\): Device "nbnosuchdev0" does not exist/);
    expect(outcomes[2]?.message).toBe('ip link show dev lo was not run: ip link show dev nbnosuchdev0 failed before it');
  });

  it('with force, goes on past failed commands and reports each on its own', async () => {
    const outcomes = await ipBatchEach([ok, missing(0), ok, missing(1)], { force: true });
    expect(outcomes.map((o) => o === undefined)).toEqual([true, false, true, false]);
    expect(outcomes[1]?.message).toMatch(/nbnosuchdev0 failed.*"nbnosuchdev0" does not exist/);
    expect(outcomes[3]?.message).toMatch(/nbnosuchdev1 failed.*"nbnosuchdev1" does not exist/);
    expect(outcomes[3]?.message).not.toMatch(/nbnosuchdev0/);
  });

  it('with force, counts every command after the last reported one as failed when a word ends ip', async () => {
    const outcomes = await ipBatchEach([ok, missing(0), ['link', 'show', 'group', 'nbnogroup'], ok], { force: true });
    expect(outcomes[0]).toBeUndefined();
    expect(outcomes[1]?.message).toMatch(/nbnosuchdev0 failed/);
    for (const later of outcomes.slice(2)) expect(later?.message).toMatch(/ip -batch stopped \(exit 255\): .*"nbnogroup" is wrong/);
  });

  it('runs inside a namespace when given one, and names it in the message', async () => {
    const [outcome] = await ipBatchEach([missing(2)], { netns: 'nb-no-such-namespace' });
    expect(outcome?.message).toMatch(/^ip -n nb-no-such-namespace link show dev nbnosuchdev2: ip -batch stopped|^ip -n nb-no-such-namespace link show dev nbnosuchdev2 failed/);
  });
});
