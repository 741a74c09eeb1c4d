import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadPriceFile, priceFilePath } from './price-file.js';

const SHIPPED = { date: '2026-01-01', instances: { small: 1, large: 4 }, egress: { interZone: 0.01, internet: { NA: 0.1, EU: 0.2 } } };

describe('priceFilePath', () => {
  const saved = { prices: process.env['NETBENCH_ACME_PRICES'], home: process.env['NETBENCH_HOME'] };
  afterEach(() => {
    for (const [name, value] of [
      ['NETBENCH_ACME_PRICES', saved.prices],
      ['NETBENCH_HOME', saved.home],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('takes $NETBENCH_<CLOUD>_PRICES, else prices/<cloud>.json under the netbench home', () => {
    delete process.env['NETBENCH_ACME_PRICES'];
    process.env['NETBENCH_HOME'] = '/srv/nb';
    expect(priceFilePath('acme')).toBe('/srv/nb/prices/acme.json');
    process.env['NETBENCH_ACME_PRICES'] = '/etc/acme.json';
    expect(priceFilePath('acme')).toBe('/etc/acme.json');
  });
});

describe('loadPriceFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nbt-cloud-prices-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is the shipped table when there is no file', () => {
    expect(loadPriceFile(SHIPPED, join(dir, 'none.json'))).toEqual({ table: SHIPPED, notes: [] });
  });

  it('merges the file over the shipped table entry by entry, and says so', async () => {
    const file = join(dir, 'acme.json');
    await writeFile(file, JSON.stringify({ date: '2027-02-02', instances: { large: 5, huge: 9 }, egress: { internet: { EU: 0.25 } } }));
    const { table, notes } = loadPriceFile(SHIPPED, file);
    expect(table).toEqual({ date: '2027-02-02', instances: { small: 1, large: 5, huge: 9 }, egress: { interZone: 0.01, internet: { NA: 0.1, EU: 0.25 } } });
    expect(notes).toEqual([`prices from ${file} over the shipped table`]);
    expect(SHIPPED.instances.large).toBe(4); // the shipped table is not changed
  });

  it('ignores a file that is not JSON, with a note naming it', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{ "instances": ');
    const { table, notes } = loadPriceFile(SHIPPED, file);
    expect(table).toBe(SHIPPED);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(new RegExp(`^ignored ${file}: `));
  });
});
