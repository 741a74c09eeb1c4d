import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostProcess, SampleInput } from '@netbench/plugin-api';
import { labTrial, type TwoHostLab, testTrialContext, twoHostLab } from '@netbench/plugin-api/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpPlugin } from './plugin.js';

// A port range of its own, so this file never meets another test's endpoints.
const plugin = httpPlugin({ ports: { first: 18_300, last: 18_319 } });
const STALL_PORT = 18_390;
const FLAKY_PORT = 18_391;
let lab: TwoHostLab;
let stall: HostProcess | undefined;
let flaky: HostProcess | undefined;

beforeAll(async () => {
  lab = await twoHostLab({ tag: 'http', subnet: '10.213.15' });
});
afterAll(async () => {
  stall?.kill('SIGKILL');
  flaky?.kill('SIGKILL');
  await lab?.close();
});

const value = (samples: readonly SampleInput[], metric: string, kind?: string) => samples.find((s) => s.metric === metric && s.labels?.error_kind === kind)?.value;
const leftovers = () => [...lab.commands(lab.serverNs), ...lab.commands(lab.clientNs)].filter((c) => /nginx|wrk|ab |oha/.test(c));

/** Run one trial; returns samples, the raw files saved and the warnings. */
async function runTrial(block: Record<string, unknown>, specDir?: string) {
  const trial = await labTrial(plugin, lab, block);
  const t = testTrialContext(60_000, 't0001', specDir);
  try {
    const { samples } = await plugin.run(trial, t.ctx);
    const raw = new Map([...t.saved].map(([name, path]) => [name, readFileSync(path, 'utf8')]));
    return { samples, raw, warnings: [...t.warnings] };
  } finally {
    t.dispose();
  }
}

describe('http run() against real nginx between two namespaces', () => {
  it('wrk, keep-alive, 1 KiB: requests/s of successes, latency percentiles, nothing left behind', async () => {
    const { samples, raw } = await runTrial({ generator: 'wrk', connections: 4, threads: 1, duration: 1, size: '1K' });
    expect(value(samples, 'HTTP_Request_Rate')).toBeGreaterThan(0);
    expect(value(samples, 'HTTP_Errors')).toBe(0);
    expect(value(samples, 'HTTP_Latency_p99')).toBeGreaterThan(0);
    expect(raw.get('wrk.txt')).toMatch(new RegExp(`Running 1s test @ http://${lab.serverIp.replaceAll('.', '\\.')}:183\\d\\d/obj-1024`));
    // 1 KiB per response: the transfer rate is at least the request rate's worth of bodies.
    expect((value(samples, 'HTTP_Transfer_Rate')! * 1e6) / 8).toBeGreaterThan(value(samples, 'HTTP_Request_Rate')! * 1024);
    expect(leftovers()).toEqual([]);
  });

  it('pins wrk and nginx with clientCpus/serverCpus and records where each ran', async () => {
    const server = availableParallelism() > 1 ? '1' : '0';
    const { samples } = await runTrial({ generator: 'wrk', connections: 2, threads: 1, duration: 1, clientCpus: '0', serverCpus: server });
    const rate = samples.find((s) => s.metric === 'HTTP_Request_Rate')!;
    expect(rate.labels).toMatchObject({ cpu_client_affinity: '0', cpu_server_affinity: server });
    // nginx's workers may take a moment to go after their master on a loaded machine.
    await expect.poll(leftovers, { timeout: 10_000 }).toEqual([]);
  });

  it('ab over HTTPS without keep-alive: percentiles from -e to the microsecond, connection breakdown', async () => {
    const { samples, raw } = await runTrial({ generator: 'ab', scheme: 'https', keepalive: false, connections: 5, requests: 300, size: 0 });
    expect(value(samples, 'HTTP_Successes')).toBe(300);
    expect(raw.get('ab.txt')).not.toMatch(/Keep-Alive requests/);
    expect(raw.get('ab-percentiles.csv')).toMatch(/^Percentage served,Time in ms/);
    // Every whole percentile 1..99 from the CSV, and the report's 100 %.
    expect(samples.filter((s) => /^HTTP_Latency_p\d+$/.test(s.metric))).toHaveLength(100);
    expect(samples.some((s) => s.metric === 'HTTP_Connect_Time' && s.labels?.stat === 'max')).toBe(true);
    expect(raw.get('ab.txt')).toMatch(/Server Port:\s+183\d\d/);
    const histogram = samples.find((s) => s.metric === 'HTTP_Latency_mean')!.histogram!;
    expect(histogram.count).toBe(300);
    expect(leftovers()).toEqual([]);
  });

  it('non-2xx responses are errors, never successes (wrk and ab)', async () => {
    for (const generator of ['wrk', 'ab']) {
      const { samples, warnings } = await runTrial({ generator, connections: 2, threads: 1, duration: 1, requests: 200, path: '/no-such-object' });
      expect(value(samples, 'HTTP_Requests'), generator).toBeGreaterThan(0);
      expect(value(samples, 'HTTP_Successes'), generator).toBe(0);
      expect(value(samples, 'HTTP_Request_Rate'), generator).toBe(0);
      expect(value(samples, 'HTTP_Errors', 'status'), generator).toBe(value(samples, 'HTTP_Requests'));
      expect(warnings.join('\n'), generator).toMatch(/no request .* succeeded/);
    }
  });

  it('a server that refuses connections fails the trial with the reason, raw output kept', async () => {
    // ab -r counts each refused request as failed and prints no reason; wrk stops at the first.
    for (const [generator, reason] of [
      ['ab', /ab on client got no answer from http:\/\/10\.213\.15\.2:1\/: errors: \d+ read/],
      ['wrk', /Connection refused/],
    ] as const) {
      const trial = await labTrial(plugin, lab, { generator, url: 'http://{server}:1/', duration: 1, requests: 10, connections: 1, threads: 1 });
      const t = testTrialContext();
      try {
        await expect(plugin.run(trial, t.ctx), generator).rejects.toThrow(reason);
        expect(t.saved.size, generator).toBeGreaterThan(0);
      } finally {
        t.dispose();
      }
    }
  });

  it('a client that times out: no answer within the timeout fails the trial, saying so', async () => {
    // A real listener that accepts and never answers.
    stall = lab.server.spawn([
      'python3',
      '-c',
      [
        'import socket, time',
        's = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
        `s.bind(("0.0.0.0", ${STALL_PORT})); s.listen(64); held = []`,
        'while True: held.append(s.accept())',
      ].join('\n'),
    ]);
    await listening(STALL_PORT);
    const url = `http://{server}:${STALL_PORT}/`;
    const ab = await labTrial(plugin, lab, { generator: 'ab', url, timeout: 1, requests: 4, connections: 2 });
    const t1 = testTrialContext();
    await expect(plugin.run(ab, t1.ctx)).rejects.toThrow(/ab .*gave up: .*timeout specified has expired/);
    t1.dispose();
    const wrk = await labTrial(plugin, lab, { generator: 'wrk', url, timeout: 1, duration: 2, connections: 2, threads: 1 });
    const t2 = testTrialContext();
    await expect(plugin.run(wrk, t2.ctx)).rejects.toThrow(/wrk .*got no answer/);
    t2.dispose();
  });

  it('wrk counts errors by kind: a dropped connection is a read error, an answer later than the timeout a timeout', async () => {
    // A real listener: each connection's first request is answered at once; then on odd connections the
    // second is dropped (the socket closed unanswered), on even ones answered after 2.5 s, past wrk's 1 s.
    flaky = lab.server.spawn([
      'python3',
      '-c',
      [
        'import itertools, socket, threading, time',
        'OK = b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\n\\r\\nok"',
        'def serve(c, i):',
        '    with c:',
        '        c.recv(65536); c.sendall(OK); c.recv(65536)',
        '        if i % 2: return',
        '        time.sleep(2.5); c.sendall(OK); c.recv(65536)',
        's = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)',
        `s.bind(("0.0.0.0", ${FLAKY_PORT})); s.listen(64)`,
        'for i in itertools.count(): threading.Thread(target=serve, args=(s.accept()[0], i), daemon=True).start()',
      ].join('\n'),
    ]);
    await listening(FLAKY_PORT);
    const { samples, raw } = await runTrial({ generator: 'wrk', url: `http://{server}:${FLAKY_PORT}/`, timeout: 1, duration: 4, connections: 2, threads: 1 });
    expect(raw.get('wrk.txt')).toMatch(/Socket errors: connect \d+, read [1-9]\d*, write \d+, timeout [1-9]\d*/);
    expect(value(samples, 'HTTP_Errors', 'read')).toBeGreaterThan(0);
    expect(value(samples, 'HTTP_Errors', 'timeout')).toBeGreaterThan(0);
    // Late answers are in wrk's request count but are not served requests.
    expect(value(samples, 'HTTP_Successes')).toBe(value(samples, 'HTTP_Requests')! - value(samples, 'HTTP_Errors', 'timeout')!);
    expect(value(samples, 'HTTP_Successes')).toBeGreaterThan(0);
  });

  it('ships a user Lua script to the client host and wrk runs it', async () => {
    // The script sends every request to a path nginx does not have: only the script can cause 404s here.
    // The spec's folder holds the script; the spec names it relative to its folder.
    const specDir = mkdtempSync(join(tmpdir(), 'nbt-http-lua-'));
    writeFileSync(join(specDir, 'missing.lua'), 'wrk.path = "/only-the-script-asks-for-this"\n');
    const { samples, raw } = await runTrial({ generator: 'wrk', duration: 1, connections: 2, threads: 1, script: './missing.lua' }, specDir);
    expect(value(samples, 'HTTP_Requests')).toBeGreaterThan(0);
    expect(value(samples, 'HTTP_Errors', 'status')).toBe(value(samples, 'HTTP_Requests'));
    expect(raw.get('wrk.txt')).toMatch(/Non-2xx or 3xx responses: \d+/);
  });

  it("refuses a script outside the spec's folder, or a link to one, before anything starts (wrk would run it as Lua on the client)", async () => {
    const specDir = mkdtempSync(join(tmpdir(), 'nbt-http-spec-'));
    const outside = join(mkdtempSync(join(tmpdir(), 'nbt-http-outside-')), 'key.lua');
    writeFileSync(outside, 'wrk.path = "/only-the-script-asks-for-this"\n');
    symlinkSync(outside, join(specDir, 'link.lua'));
    for (const [script, why] of [
      [outside, /not under the spec's folder/],
      [`../${outside.split('/').slice(-2).join('/')}`, /not under the spec's folder/],
      ['link.lua', /symbolic link/],
    ] as const) {
      await expect(runTrial({ generator: 'wrk', duration: 1, connections: 1, threads: 1, script }, specDir)).rejects.toThrow(why);
    }
    expect(leftovers()).toEqual([]);
  });

  it('stops nginx and removes its private directory when the client fails', async () => {
    // A script that stops wrk as it loads (a Lua error only prints; wrk goes on): nginx has started by then.
    const specDir = mkdtempSync(join(tmpdir(), 'nbt-http-bad-lua-'));
    writeFileSync(join(specDir, 'bad.lua'), 'io.stderr:write("the test script stops wrk\\n") os.exit(3)\n');
    const trial = await labTrial(plugin, lab, { generator: 'wrk', duration: 1, connections: 1, threads: 1, script: 'bad.lua' });
    const t = testTrialContext(30_000, 't0001', specDir);
    try {
      await expect(plugin.run(trial, t.ctx)).rejects.toThrow(/exit 3|the test script stops wrk/);
    } finally {
      t.dispose();
    }
    expect(leftovers()).toEqual([]);
  });
});

/** Python may take a while to start on a loaded machine: wait until the port listens. */
async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const found = await lab.server.exec(['ss', '-Hltn', `sport = :${port}`]);
    if (found.stdout.trim() !== '') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('nginx private directory', () => {
  it('is made under the temp dir, named after the run, and removed after the trial with its HTTPS key', async () => {
    const mine = () => readdirSync('/tmp').filter((d) => d.startsWith('netbench-http-test-run'));
    const before = new Set(mine());
    const { raw } = await runTrial({ generator: 'wrk', duration: 1, connections: 1, threads: 1, scheme: 'https' });
    expect(raw.get('wrk.txt')).toMatch(/Running 1s test @ https:/);
    expect(mine().filter((d) => !before.has(d))).toEqual([]);
  });
});
