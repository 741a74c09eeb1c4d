import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import http, { nginxConfig, parseAb, parseAbPercentilesCsv, parseOha, parseWrk } from '@netbench/plugin-http';
import { openBenchLab } from './lab.mjs';
import { line, median } from './lib.mjs';

const run = promisify(execFile);
// Rounds of three arms each (by hand A, netbench, by hand B); a multiple of 3 puts every arm in every position equally
// often. Many short rounds rather than a few long ones: the machine's load drifts over seconds, and pairs close in
// time see the same load (12 rounds of 5 s left 95 % intervals of ±15-40 %, 30 of 2 s ±5-20 % on the same machine).
const ROUNDS = Number(process.env.HTTP_BENCH_ROUNDS ?? 24);
// Seconds of load per wrk/oha round (ab: about as long).
const SECONDS = Number(process.env.HTTP_BENCH_SECONDS ?? 3);
// ab has no duration: a first trial of this many requests measures the rate, and the rounds run SECONDS' worth
// (requests/s on the lab swing 4,000-30,000 with the machine's load). HTTP_BENCH_AB_REQUESTS fixes the count instead.
const AB_CALIBRATION_REQUESTS = 5_000;
const AB_REQUESTS = process.env.HTTP_BENCH_AB_REQUESTS ? Number(process.env.HTTP_BENCH_AB_REQUESTS) : undefined;
// `HTTP_BENCH_ONLY=wrk,ab` runs only those generators.
const ONLY = process.env.HTTP_BENCH_ONLY?.split(',');
const CONNECTIONS = 10;
const SIZE = 1024;
const OHA_RATE = 2000;
// On 2 vCPUs placement decides the result: nginx on CPU 0, the load generator on CPU 1, by hand and via netbench alike.
const SERVER_CPUS = '0';
const CLIENT_CPUS = '1';
const HAND_PORT = 18_250;

/**
 * On the same two lab namespaces, back to back: the load generator run by
 * hand (`ip netns exec CLIENT taskset -c 1 wrk …`, typed out below as a person
 * would, against an nginx started by hand with the same configuration, pinned
 * to CPU 0) and the same trial through the http plugin. Each round runs three
 * arms — by hand (A), netbench, by hand again (B) — in an order that rotates,
 * so drift in the machine's load favours none. Before measuring, the argv
 * netbench spawned for the generator and for nginx, and the nginx.conf it
 * wrote, are compared with the by-hand ones: any difference but the port and
 * the private directory stops the bench (a config difference is a bug, not
 * noise). Reported per figure: each arm's median and range; netbench against
 * all by-hand runs (difference of medians) and, paired within each round,
 * against the two by-hand runs around it (median and 95 % bootstrap
 * interval); and B against A, paired the same way — the same command against
 * itself, the noise floor of this machine.
 */
export default async function httpBench() {
  // What netbench starts, as the hosts see it: the generator's argv, nginx's argv, the nginx.conf written.
  const seen = { client: [], nginx: [], configs: [] };
  let lab = await openLab(seen);
  try {
    const info = await http.check(lab.client, lab.ctx);
    line('placement', `nginx CPU ${SERVER_CPUS}, client CPU ${CLIENT_CPUS}`);
    line('versions', `${info.version}`);
    line('kernel', execFileSync('uname', ['-r'], { encoding: 'utf8' }).trim());
    line('autogroup scheduling', readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim());
    line('load average (1 min) at start', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
    const trialOf = (block, i) => {
      const [spec] = http.trials(http.schema.parse({ ...block, clientCpus: CLIENT_CPUS, serverCpus: SERVER_CPUS }));
      return {
        id: `${block.generator}-${i}`,
        test: spec.test,
        params: spec.params,
        client: lab.spiedClient,
        server: lab.spiedServer,
        target: lab.server.internalIp,
        clientInfo: info,
        serverInfo: info,
        attempt: 0,
      };
    };
    const pick = (samples) => ({
      rate: samples.find((s) => s.metric === 'HTTP_Request_Rate').value,
      p50: samples.find((s) => s.metric === 'HTTP_Latency_p50').value,
      p99: samples.find((s) => s.metric === 'HTTP_Latency_p99').value,
      placement: `${samples[0].labels.cpu_client_affinity}/${samples[0].labels.cpu_server_affinity}`,
    });
    const fromResult = (r) => ({ rate: r.successes / r.seconds, p50: r.percentiles.find(([p]) => p === 50)[1], p99: r.percentiles.find(([p]) => p === 99)[1] });
    const url = () => `http://${lab.server.internalIp}:${HAND_PORT}/obj-${SIZE}`;

    // Each by-hand command written out in full, as one would type it; `csv` is ab's -e file.
    const cases = [
      {
        generator: 'wrk',
        block: { generator: 'wrk', connections: CONNECTIONS, threads: 1, duration: SECONDS, size: SIZE },
        argv: () => ['taskset', '-c', CLIENT_CPUS, 'wrk', '-t', '1', '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--timeout', '10s', '--latency', '--', url()],
        result: (out) => fromResult(parseWrk(out)),
      },
      // ab has no duration: its request count is set after a first trial so that a round lasts about SECONDS.
      {
        generator: 'ab',
        block: { generator: 'ab', connections: CONNECTIONS, requests: AB_CALIBRATION_REQUESTS, size: SIZE },
        argv(csv) {
          return ['taskset', '-c', CLIENT_CPUS, 'ab', '-n', String(this.block.requests), '-c', String(CONNECTIONS), '-k', '-s', '10', '-e', csv, '-r', '--', url()];
        },
        result: (out, csv) => {
          const report = parseAb(out);
          const rows = parseAbPercentilesCsv(readFileSync(csv, 'utf8'));
          return { rate: report.successes / report.seconds, p50: rows.find(([p]) => p === 50)[1], p99: rows.find(([p]) => p === 99)[1] };
        },
      },
    ];
    const oha = ohaCommand();
    if (oha) {
      cases.push({
        generator: 'oha',
        block: { generator: 'oha', connections: CONNECTIONS, duration: SECONDS, rate: OHA_RATE, size: SIZE },
        argv: () => [
          'taskset',
          '-c',
          CLIENT_CPUS,
          oha,
          '-z',
          `${SECONDS}s`,
          '-c',
          String(CONNECTIONS),
          '-q',
          String(OHA_RATE),
          '--latency-correction',
          '-t',
          '10s',
          '-w',
          '--no-tui',
          '--output-format',
          'json',
          '--',
          url(),
        ],
        result: (out) => fromResult(parseOha(out)),
      });
    } else {
      line('oha', 'not installed: skipped (scripts/install-oha.sh)');
    }

    for (const c of cases.filter((k) => !ONLY || ONLY.includes(k.generator))) {
      const byHand = async () => {
        const dir = mkdtempSync('/tmp/netbench-bench-client-');
        const csv = join(dir, 'ab-percentiles.csv');
        try {
          // setsid: a command typed in a terminal has its own session, and so has what netbench spawns (detached);
          // with autogroup scheduling the CPU share follows the session (sharing this bench's cost the by-hand side 27-44 % of its requests/s).
          const { stdout } = await run('setsid', ['-w', 'ip', 'netns', 'exec', lab.client.labels.netns, ...c.argv(csv)], { encoding: 'utf8', maxBuffer: 1 << 26 });
          return c.result(stdout, csv);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      };
      const arms = {
        handA: async () => withHandNginx(lab.server, c.block, byHand),
        netbench: async (i) => pick((await http.run(trialOf(c.block, i), lab.trialCtx(`${c.generator}-${i}`))).samples),
        handB: async () => withHandNginx(lab.server, c.block, byHand),
      };
      if (c.generator === 'ab') {
        const { rate } = await arms.netbench('calibration');
        c.block.requests = AB_REQUESTS ?? Math.max(AB_CALIBRATION_REQUESTS, Math.round((rate * SECONDS) / 1000) * 1000);
      }
      await assertSameCommands(c, seen, arms.netbench, url());
      const results = { handA: [], netbench: [], handB: [] };
      const order = ['handA', 'netbench', 'handB'];
      for (let i = 0; i < ROUNDS; i += 1) {
        for (let attempt = 1; ; attempt += 1) {
          try {
            const round = {};
            for (let k = 0; k < order.length; k += 1) round[order[(i + k) % order.length]] = await arms[order[(i + k) % order.length]](i);
            for (const arm of order) results[arm].push(round[arm]);
            break;
          } catch (error) {
            // On a shared machine someone's `netbench cleanup --all` may delete this lab: make a new one and redo the round.
            if (attempt >= 3 || (await labAlive(lab))) throw error;
            line(`${c.generator} round ${i}`, 'lab deleted under the bench: new lab, round repeated');
            await lab.close();
            lab = await openLab(seen);
          }
        }
      }
      report(`${c.argv('FILE').slice(3).join(' ').replace(url(), 'URL')} (${SIZE} B object, keep-alive)`, results);
    }
  } finally {
    await lab.close();
  }
}

/** A bench lab whose hosts, as netbench's trials see them, record what is started on them. */
async function openLab(seen) {
  const lab = await openBenchLab('netbench-bench-http-');
  const { client, server, runDir } = lab;
  const spiedClient = { ...client, spawn: (argv, o) => (seen.client.push(argv), client.spawn(argv, o)) };
  const spiedServer = {
    ...server,
    spawn: (argv, o) => (seen.nginx.push(argv), server.spawn(argv, o)),
    exec: (argv, o) => {
      if (argv[0] === 'sh' && String(argv.at(-1)).endsWith('/nginx.conf')) seen.configs.push({ path: argv.at(-1), text: o?.stdin });
      return server.exec(argv, o);
    },
  };
  const trialCtx = (id) => ({
    ...lab.ctx,
    timeoutMs: 120_000,
    saveRaw: async (name, content) => {
      const p = join(runDir, 'raw', `${id}-${name}`);
      writeFileSync(p, content);
      return p;
    },
    progress() {},
  });
  return { ...lab, spiedClient, spiedServer, trialCtx };
}

async function labAlive(lab) {
  const { stdout } = await run('ip', ['netns', 'list']);
  return [lab.client, lab.server].every((host) => stdout.includes(host.labels.netns));
}

/**
 * One netbench trial (not counted), then its generator argv, nginx argv and
 * nginx.conf against the by-hand ones with only the port and private
 * directory told apart. A mismatch throws: the comparison would be void.
 */
async function assertSameCommands(c, seen, netbench, url) {
  for (const list of Object.values(seen)) list.length = 0;
  const { placement } = await netbench('check');
  const clientArgv = seen.client.find((argv) => argv.includes(c.argv('')[3]));
  const nginxArgv = seen.nginx.find((argv) => argv.includes('nginx'));
  const config = seen.configs.at(-1);
  const nbDir = config.path.replace(/\/nginx\.conf$/, '');
  const nbPort = /listen (\d+)/.exec(config.text)[1];
  const nbUrl = clientArgv.at(-1);
  const csv = clientArgv.includes('-e') ? clientArgv[clientArgv.indexOf('-e') + 1] : undefined;
  const normalized = clientArgv.map((a) => (a === nbUrl ? url : a === csv ? 'CSV' : a));
  const expectArgv = c.argv('CSV');
  const handDir = '/DIR';
  const same = [
    ['generator argv', JSON.stringify(normalized), JSON.stringify(expectArgv)],
    ['nginx argv', JSON.stringify(nginxArgv.map((a) => a.replaceAll(nbDir, handDir))), JSON.stringify(handNginxArgv(handDir))],
    ['nginx.conf', config.text.replaceAll(nbDir, handDir).replace(`listen ${nbPort}`, `listen ${HAND_PORT}`), handConfig(handDir, c.block)],
    ['placement client/server', placement, `${CLIENT_CPUS}/${SERVER_CPUS}`],
  ];
  for (const [what, nb, hand] of same) {
    if (nb !== hand) throw new Error(`${c.generator}: netbench's ${what} differs from the by-hand one:\n  netbench: ${nb}\n  by hand:  ${hand}`);
  }
  line(`${c.generator}: same argv, nginx.conf and placement`, 'yes');
  if (!nbUrl.startsWith(`http://${new URL(url).hostname}:`)) throw new Error(`netbench's URL ${nbUrl} is not on the server's address`);
}

function handNginxArgv(dir) {
  return ['taskset', '-c', SERVER_CPUS, 'nginx', '-p', `${dir}/`, '-c', `${dir}/nginx.conf`, '-e', `${dir}/error.log`];
}

function handConfig(dir, block) {
  return nginxConfig({ dir, port: HAND_PORT, tls: false, keepalive: true, workers: 1, connections: block.connections });
}

/**
 * nginx started by hand in the server namespace with the same config, for the
 * length of `use`: in the foreground of its own session (detached, as netbench's
 * transport spawns it), stopped with SIGTERM as netbench stops it.
 */
async function withHandNginx(server, block, use) {
  const dir = mkdtempSync('/tmp/netbench-bench-nginx-');
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www'));
  mkdirSync(join(dir, 'tmp'));
  chmodSync(join(dir, 'www'), 0o755);
  writeFileSync(join(dir, 'www', `obj-${SIZE}`), '');
  truncateSync(join(dir, 'www', `obj-${SIZE}`), SIZE);
  writeFileSync(join(dir, 'nginx.conf'), handConfig(dir, block));
  const ns = server.labels.netns;
  const nginx = spawn('ip', ['netns', 'exec', ns, ...handNginxArgv(dir)], { detached: true, stdio: 'ignore' });
  const exited = new Promise((resolve) => nginx.once('exit', resolve));
  try {
    for (let i = 0; ; i += 1) {
      const { stdout } = await run('ip', ['netns', 'exec', ns, 'ss', '-Hltn', `sport = :${HAND_PORT}`]);
      if (stdout.trim() !== '') break;
      if (i > 200) throw new Error(`nginx by hand did not listen on ${HAND_PORT}: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await use();
  } finally {
    try {
      process.kill(-nginx.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    const killed = setTimeout(() => {
      try {
        process.kill(-nginx.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 2_000);
    await exited;
    clearTimeout(killed);
    rmSync(dir, { recursive: true, force: true });
  }
}

function ohaCommand() {
  for (const candidate of ['oha', join(process.env.HOME ?? '/root', '.cache/netbench/oha/bin/oha')]) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function report(what, results) {
  console.log(`  ${what}: ${results.netbench.length} rounds × 3 arms (by hand A, netbench, by hand B), order rotating`);
  const diff = (b, a) => `${(((b - a) / a) * 100).toFixed(1)} %`;
  const pct = (logRatio) => `${((Math.exp(logRatio) - 1) * 100).toFixed(1)} %`;
  const interval = (logs) => {
    const [m, lo, hi] = medianWithInterval(logs);
    return `${pct(m)} [${pct(lo)}, ${pct(hi)}]`;
  };
  for (const [key, unit] of [
    ['rate', 'requests/s'],
    ['p50', 'ms'],
    ['p99', 'ms'],
  ]) {
    const [a, nb, b] = ['handA', 'netbench', 'handB'].map((arm) => results[arm].map((r) => r[key]));
    const [ma, mnb, mb] = [a, nb, b].map(median);
    line(`    ${key} medians: by hand A / netbench / by hand B (${unit})`, `${fmt(ma)} / ${fmt(mnb)} / ${fmt(mb)}`);
    line(`    ${key} ranges: A | netbench | B`, [a, nb, b].map((v) => `${fmt(Math.min(...v))}–${fmt(Math.max(...v))}`).join(' | '));
    line(`    ${key} difference of medians: netbench vs A∪B`, diff(mnb, median([...a, ...b])), 'within 5 %');
    // Paired within each round, which cancels the machine's slow drift: netbench against the two by-hand runs around it.
    line(`    ${key} paired: netbench vs √(A·B) of its round [95 % CI]`, interval(nb.map((x, i) => Math.log(x / Math.sqrt(a[i] * b[i])))), 'within 5 %');
    // The same command against itself: a difference above is netbench's only where it is well beyond this one.
    line(`    ${key} noise floor, paired: B vs A [95 % CI]`, interval(b.map((x, i) => Math.log(x / a[i]))));
  }
}

/** Median and a 95 % percentile-bootstrap interval of it (2,000 resamples, fixed seed so a rerun on the same data agrees). */
function medianWithInterval(values) {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const medians = Array.from({ length: 2_000 }, () => median(values.map(() => values[Math.floor(random() * values.length)]))).sort((x, y) => x - y);
  return [median(values), medians[50], medians[1_949]];
}

function fmt(x) {
  return x >= 100 ? x.toFixed(0) : x.toFixed(3);
}
