import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@netbench/results';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHome } from './helpers/cli.js';
import { onlyRunDir, readResults } from './helpers/results.js';

// `netbench import` through the built CLI on real captured outputs (the plugins' fixtures, and
// tests/fixtures/import/), plus broken copies of them made here.
const real = (plugin: string, name: string) => join(repoRoot, 'packages/plugins', plugin, 'src/__fixtures__', name);
const EVERY_FORMAT: readonly (readonly [string, string, string])[] = [
  // [file, tool, test]
  [real('ping', 'ping-timestamps.txt'), 'ping', 'icmp'],
  [real('ping', 'ping-flood.txt'), 'ping', 'icmp'],
  [real('ping', 'ping-flood-errors.txt'), 'ping', 'icmp'],
  [real('ping', 'ping-quiet.txt'), 'ping', 'icmp'],
  [real('netperf', 'classic-tcp_rr.txt'), 'netperf', 'TCP_RR'],
  [real('netperf', 'classic-cpu-tcp_stream.txt'), 'netperf', 'TCP_STREAM'],
  [real('netperf', 'omni-csv-udp_rr.txt'), 'netperf', 'UDP_RR'],
  [real('netperf', 'omni-keyval-tcp_crr.txt'), 'netperf', 'TCP_CRR'],
  [real('netperf', 'confidence-classic-tcp_rr.txt'), 'netperf', 'TCP_RR'],
  [real('netperf', 'handmade-histogram-tcp_rr.txt'), 'netperf', 'TCP_RR'],
  [real('iperf3', 'tcp-4.json'), 'iperf3', 'tcp'],
  [real('iperf3', 'text-tcp-4.txt'), 'iperf3', 'tcp'],
  [real('iperf3', 'text-udp-loss.txt'), 'iperf3', 'udp'],
  [real('iperf3', 'text-udp-bidir.txt'), 'iperf3', 'udp'],
  [real('iperf', 'tcp-p3.txt'), 'iperf', 'tcp'],
  [real('iperf', 'udp-e.txt'), 'iperf', 'udp'],
  [real('iperf', 'server-udp-p2.txt'), 'iperf', 'udp'],
  [real('fping', 'vector.txt'), 'fping', 'icmp'],
  [real('fping', 'count-quiet.txt'), 'fping', 'icmp'],
  [real('http', 'ab-keepalive-1k.txt'), 'http', 'ab'],
  [real('http', 'ab-non2xx.txt'), 'http', 'ab'],
  [real('http', 'wrk-latency.txt'), 'http', 'wrk'],
  [real('http', 'wrk-socket-errors.txt'), 'http', 'wrk'],
  [real('http', 'oha-rate-300.json'), 'http', 'oha'],
];

interface ImportJson {
  runId: string;
  status: string;
  exitCode: number;
  runDir: string;
  storedIn?: string;
  samples: number;
  files: { file: string; tool: string; test: string; status: string; samples: number; error?: string }[];
}

function lab() {
  const home = tempHome('netbench-import-');
  const runs = join(home, 'runs');
  const db = join(home, 'nb.db');
  const run = (args: readonly string[]) => runCli(['import', ...args, '--runs-dir', runs, '--db', db], { env: { NETBENCH_HOME: home } });
  return { home, runs, db, run };
}

async function storedRuns(db: string) {
  const store = await openStore(db, { create: false });
  try {
    return store.list().runs.map((r) => ({ runId: r.runId, trials: r.trials, samples: r.samples, status: r.status }));
  } finally {
    store.close();
  }
}

describe('netbench import', () => {
  it('reads every format, recognising each file (--tool auto), into one run stored like any other', async () => {
    const { runs, db, run } = lab();
    const result = await run([...EVERY_FORMAT.map(([file]) => file), '--label', 'site=lab', '--name', 'all-formats', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as ImportJson;
    expect(body.files.map((f) => [f.file, f.tool, f.test, f.status])).toEqual(EVERY_FORMAT.map(([file, tool, test]) => [file, tool, test, 'succeeded']));
    expect(body.files.every((f) => f.samples > 0)).toBe(true);

    const runDir = onlyRunDir(runs);
    const { run: record, samples } = readResults(runDir);
    expect(record).toMatchObject({ name: 'all-formats', status: 'succeeded', labels: { imported: true, site: 'lab' } });
    expect(record.trials).toHaveLength(EVERY_FORMAT.length);
    record.trials.forEach((trial, i) => {
      expect(readFileSync(join(runDir, trial.rawFiles[0]!), 'utf8')).toBe(readFileSync(EVERY_FORMAT[i]![0], 'utf8'));
    });
    expect(samples).toHaveLength(body.samples);
    const iperfUdp = samples.find((s) => s.labels.tool === 'iperf' && s.metric === 'UDP Throughput' && s.labels.report_from === 'client')!;
    expect(iperfUdp).toMatchObject({ value: 52.2, unit: 'Mbits/sec', labels: { site: 'lab', test: 'udp', imported: true } });
    const fpingP50 = samples.find((s) => s.labels.tool === 'fping' && s.metric === 'Latency p50')!;
    expect(fpingP50.value).toBe(0.072);
    expect(samples.find((s) => s.metric === 'TCP_RR_Latency_Histogram')?.histogram?.count).toBeGreaterThan(0);
    // HTTP: ab's and wrk's saved reports and oha's JSON; non-2xx answers are errors, not served requests.
    const http = (file: string, metric: string, kind?: string) => {
      const trial = record.trials[EVERY_FORMAT.findIndex(([f]) => f.endsWith(`/${file}`))]!;
      return samples.filter((s) => s.trialId === trial.id && s.metric === metric && s.labels.error_kind === kind);
    };
    expect(http('ab-keepalive-1k.txt', 'HTTP_Connect_Time').map((s) => s.labels.stat)).toEqual(expect.arrayContaining(['min', 'mean', 'median', 'max']));
    expect(http('ab-non2xx.txt', 'HTTP_Request_Rate')[0]?.value).toBe(0);
    expect(http('ab-non2xx.txt', 'HTTP_Errors', 'status')[0]?.value).toBeGreaterThan(0);
    expect(http('wrk-socket-errors.txt', 'HTTP_Errors', 'read')[0]?.value).toBe(6);
    expect(http('wrk-latency.txt', 'HTTP_Latency_p99')[0]?.unit).toBe('ms');
    expect(http('oha-rate-300.json', 'HTTP_Latency_p99_99')[0]?.value).toBeGreaterThan(0);

    expect(await storedRuns(db)).toEqual([{ runId: body.runId, trials: EVERY_FORMAT.length, samples: samples.length, status: 'succeeded' }]);
  });

  it('--tool names the parser; --test names what the output does not say; --no-store keeps the run folder only', async () => {
    const { home, runs, db, run } = lab();
    const noBanner = join(home, 'np.csv');
    writeFileSync(noBanner, readFileSync(real('netperf', 'omni-csv-tcp_rr.txt'), 'utf8').split('\n').slice(1).join('\n'));
    const result = await run(['--tool', 'netperf', '--test', 'TCP_RR', noBanner, '--no-store']);
    expect(result.code, result.stderr).toBe(0);
    // 10 netperf figures and the packet rate derived from the transaction rate (2 packets per transaction).
    expect(result.stdout).toMatch(/t0001 {2}netperf TCP_RR +11 samples/);
    const { samples } = readResults(onlyRunDir(runs));
    expect(samples[0]!.labels).toMatchObject({ test: 'TCP_RR', tool: 'netperf' });
    const rate = samples.find((s) => s.metric === 'TCP_RR_Transaction_Rate')!.value;
    expect(samples.find((s) => s.metric === 'TCP_RR_Packet_Rate')?.value).toBeCloseTo(2 * rate);
    expect(existsSync(db)).toBe(false);
  });
});

describe('netbench import: bad input', () => {
  it('corrupt and truncated outputs are failed trials naming file and line (exit 3); the good files and what was stored stay', async () => {
    const { home, runs, db, run } = lab();
    const first = await run([real('ping', 'ping-normal.txt')]);
    expect(first.code, first.stderr).toBe(0);
    const before = await storedRuns(db);

    const pingLines = readFileSync(real('ping', 'ping-timestamps.txt'), 'utf8').split('\n');
    const truncated = join(home, 'ping-cut.txt');
    writeFileSync(truncated, pingLines.slice(0, 20).join('\n'));
    const corrupt = join(home, 'ping-corrupt.txt');
    writeFileSync(corrupt, pingLines.map((line, i) => (i === 7 ? line.replace('bytes from', 'bytse frmo') : line)).join('\n'));
    const json = join(home, 'iperf3-cut.json');
    writeFileSync(json, readFileSync(real('iperf3', 'tcp-1.json'), 'utf8').slice(0, 3000));
    const timedOut = join(repoRoot, 'tests/fixtures/import/netperf-udp_rr-netserver-stopped.txt');
    const good = real('fping', 'vector.txt');

    const result = await run(['--tool', 'auto', truncated, corrupt, json, timedOut, good]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${truncated}:20: no "packets transmitted" statistics: ping did not finish`);
    expect(result.stderr).toContain(`${corrupt}:8: unrecognised line`);
    expect(result.stderr).toMatch(new RegExp(`${json.replace(/[.]/g, '\\.')}:\\d+: not iperf3 JSON`));
    expect(result.stderr).toContain(`${timedOut}:2: netperf failed: recv_response_timed_n: no response received. errno 4 counter 0`);
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(result.stdout).toMatch(/t0005 {2}fping +icmp +13 samples/);

    const runDirs = readdirSync(runs);
    expect(runDirs).toHaveLength(2);
    // Run ids sort by second, then by a random tag: two imports in one second sort either way.
    const second = runDirs.find((dir) => dir !== before[0]!.runId)!;
    const { run: record } = readResults(join(runs, second));
    expect(record.trials.map((t) => t.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'succeeded']);
    expect(readdirSync(join(runs, second, 'raw'))).toHaveLength(5);
    const after = await storedRuns(db);
    expect(after.filter((r) => r.runId === before[0]!.runId)).toEqual(before);
    expect(after).toHaveLength(2);
  });

  it('unknown formats, empty and missing files: exit 2, every file named, nothing written', async () => {
    const { home, runs, db, run } = lab();
    expect((await run([real('ping', 'ping-normal.txt')])).code).toBe(0);
    const dbBefore = readFileSync(db);
    const unknown = join(home, 'notes.txt');
    writeFileSync(unknown, 'measured 3 ms yesterday\n');
    const empty = join(home, 'empty.txt');
    writeFileSync(empty, '');
    const result = await run([unknown, empty, join(home, 'missing.txt')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${unknown}: unrecognised format: no installed tool (`);
    expect(result.stderr).toContain(`${empty}: empty file`);
    expect(result.stderr).toContain(`${join(home, 'missing.txt')}: cannot read (ENOENT)`);
    expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    expect(readdirSync(runs)).toHaveLength(1);
    expect(readFileSync(db).equals(dbBefore)).toBe(true);

    const noTool = await run(['--tool', 'nosuch', unknown, '--json']);
    expect(noTool.code).toBe(2);
    expect((JSON.parse(noTool.stdout) as { error: { message: string } }).error.message).toMatch(
      /no tool plugin named nosuch is installed \(installed: .*fping.*iperf.*iperf3.*netperf.*ping/,
    );
    const badLabel = await run(['--label', 'nokey', real('ping', 'ping-normal.txt')]);
    expect(badLabel.code).toBe(2);
    expect(badLabel.stderr).toContain('--label "nokey": expected key=value');
    expect(readdirSync(runs)).toHaveLength(1);
  });

  it('a results store that is not ours: the run folder is complete, the file untouched, exit 1', async () => {
    const home = mkdtempSync(join(tempHome(), 'x-'));
    const foreign = join(home, 'foreign.db');
    writeFileSync(foreign, 'not a database at all\n');
    const result = await runCli(['import', real('ping', 'ping-normal.txt'), '--runs-dir', join(home, 'runs'), '--db', foreign], { env: { NETBENCH_HOME: home } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: results store: .*netbench results add /);
    expect(readFileSync(foreign, 'utf8')).toBe('not a database at all\n');
    expect(readResults(onlyRunDir(join(home, 'runs'))).samples.length).toBeGreaterThan(0);
  });
});
