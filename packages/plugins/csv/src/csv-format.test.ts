import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord, Sample } from '@netbench/plugin-api';
import { describe, expect, it } from 'vitest';
import csvPlugin, { csvField, formatCsv } from './index.js';

const base: Sample = {
  runId: 'r1',
  sampleId: 'r1-1',
  trialId: 't0001',
  metric: 'throughput',
  value: 941.5,
  unit: 'Mbits/sec',
  timestamp: Date.UTC(2026, 10, 22, 11, 2, 56, 512),
  labels: { run_id: 'r1', tool: 'iperf3', streams: 4 },
};

describe('csv', () => {
  it('quotes fields per RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('')).toBe('');
  });

  it('writes a header and one row per sample, label columns the sorted union', () => {
    const samples: Sample[] = [
      base,
      {
        ...base,
        sampleId: 'r1-2',
        trialId: undefined,
        metric: 'phase_duration',
        value: 0.5,
        unit: 's',
        labels: { run_id: 'r1', phase: 'provision', note: 'a, "quoted"\nvalue', unit: 'x' },
      },
    ];
    expect(formatCsv(samples)).toBe(
      [
        // Sorted by label key; the `unit` label keeps its place as `label_unit`.
        'run_id,sample_id,trial_id,timestamp,metric,value,unit,note,phase,streams,tool,label_unit',
        'r1,r1-1,t0001,2026-11-22T11:02:56.512Z,throughput,941.5,Mbits/sec,,,4,iperf3,',
        'r1,r1-2,,2026-11-22T11:02:56.512Z,phase_duration,0.5,s,"a, ""quoted""\nvalue",provision,,,x',
        '',
      ].join('\r\n'),
    );
  });

  it('neutralises formula-like text (= + - @ tab CR) but keeps negative and exponent numbers numeric', () => {
    for (const [raw, cell] of [
      ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
      ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
      ['-2+3', "'-2+3"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\t=1', "'\t=1"],
      ['\r=1', `"'\r=1"`],
      ['-', "'-"],
      ['--help', "'--help"],
      ['-12.5', '-12.5'],
      ['+3', '+3'],
      ['1e-3', '1e-3'],
      ['-4.2E+7', '-4.2E+7'],
      ['a=b', 'a=b'],
      ['rack-3', 'rack-3'],
    ] as const)
      expect(csvField(raw), raw).toBe(cell);
    const text = formatCsv([{ ...base, value: -3.25, metric: '=1+1', unit: '@x', labels: { note: '=cmd|x', offset: -7, '-key': 'v' } }]);
    const [header, row] = text.split('\r\n');
    expect(header).toBe("run_id,sample_id,trial_id,timestamp,metric,value,unit,'-key,note,offset");
    expect(row).toBe("r1,r1-1,t0001,2026-11-22T11:02:56.512Z,'=1+1,-3.25,'@x,v,'=cmd|x,-7");
  });

  it('keeps a run_id label that differs from the run id column', () => {
    const text = formatCsv([{ ...base, labels: { run_id: 'other' } }]);
    expect(text.split('\r\n')[0]).toBe('run_id,sample_id,trial_id,timestamp,metric,value,unit,label_run_id');
  });

  it('publishes to <runDir>/results.csv by default', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nbt-csv-'));
    try {
      const ctx = { runId: 'r1', runDir: dir, signal: new AbortController().signal, log: { debug() {}, info() {}, warn() {} } };
      const result = await csvPlugin.publish({} as RunRecord, [base], csvPlugin.schema.parse({}), ctx);
      expect(result).toEqual({ location: join(dir, 'results.csv'), count: 1 });
      expect((await readFile(result.location!, 'utf8')).split('\r\n')).toHaveLength(3);
      expect(() => csvPlugin.schema.parse({ file: '' })).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
