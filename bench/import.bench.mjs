import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliBin, line, median, repoRoot, tempDir } from './lib.mjs';

const PACKETS = 100_000;

/**
 * `netbench import` of a 100,000-packet ping log (goal ≤ 1 s). Flood ping
 * (-f) prints dots, not per-packet lines, so the log follows a real `ping -D`
 * capture (packages/plugins/ping/src/__fixtures__/ping-timestamps.txt) line
 * for line, with 16-bit sequence numbers wrapping as ping's do, and ends with
 * the summary a flood run prints (pipe, ipg/ewma). Timed in process (parse,
 * histogram, run folder, store) and end to end through the CLI, as wall
 * time and as CPU time (user + system), which a busy machine inflates less.
 */
export default async function importBench() {
  const dir = tempDir('netbench-bench-import-');
  const log = join(dir, 'flood-100k.txt');
  writeFileSync(log, pingLog(PACKETS));

  const { createRegistry } = await import(join(repoRoot, 'packages/core/dist/index.js'));
  const { importFiles } = await import(join(repoRoot, 'packages/results/dist/index.js'));
  const registry = createRegistry({ searchDirs: [join(repoRoot, 'packages/cli')] });
  const wall = [];
  const cpu = [];
  for (let i = 0; i < 5; i += 1) {
    const started = process.hrtime.bigint();
    const usage = process.cpuUsage();
    const outcome = await importFiles({ tool: 'ping', files: [log], registry, runsDir: join(dir, 'runs'), db: join(dir, 'in-process.db') });
    const used = process.cpuUsage(usage);
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    cpu.push((used.user + used.system) / 1000);
    if (outcome.exitCode !== 0) throw new Error(`import failed: ${outcome.files[0]?.error}`);
  }
  line(`importFiles, ${PACKETS.toLocaleString('en-US')}-packet ping log, median of 5`, `${median(wall).toFixed(0)} ms`, '≤ 1000 ms');
  line('  CPU time (user + system), median of 5', `${median(cpu).toFixed(0)} ms`);

  for (const tool of ['ping', 'auto']) {
    const runs = Array.from({ length: 3 }, () =>
      timedCli(['import', '--tool', tool, log, '--runs-dir', join(dir, 'runs'), '--db', join(dir, 'cli.db'), '--json'], { NETBENCH_HOME: dir }),
    );
    line(`netbench import --tool ${tool} (whole CLI process), median of 3`, `${median(runs.map((r) => r.wall)).toFixed(0)} ms`, '≤ 1000 ms');
    line('  CPU time of the process (user + system), median of 3', `${median(runs.map((r) => r.cpu)).toFixed(0)} ms`);
  }
  line('load average (1 min) while measuring', readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
}

/** Run the CLI under bash's `time` (argv passed as arguments, never pasted into the script): wall and CPU ms. */
function timedCli(args, env) {
  const script = 'TIMEFORMAT="%R %U %S"; { time "$@" >/dev/null 2>/dev/null; } 2>&1';
  const result = spawnSync('bash', ['-c', script, 'bash', process.execPath, cliBin, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const [real, user, system] = result.stdout.trim().split('\n').at(-1).split(' ').map(Number);
  if (result.status !== 0 || !Number.isFinite(real)) throw new Error(`netbench ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  return { wall: real * 1000, cpu: (user + system) * 1000 };
}

/** A `ping -D -n` log of `count` replies with RTTs spread like a LAN's (deterministic). */
function pingLog(count) {
  const lines = ['PING 10.213.7.2 (10.213.7.2) 56(84) bytes of data.'];
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let time = 1_795_346_080.687375;
  let min = Infinity;
  let max = 0;
  let sum = 0;
  let sumSquares = 0;
  for (let i = 1; i <= count; i += 1) {
    const rtt = Math.round((0.03 + random() * 0.05 + (random() < 0.01 ? random() * 0.5 : 0)) * 1000) / 1000;
    [min, max, sum, sumSquares] = [Math.min(min, rtt), Math.max(max, rtt), sum + rtt, sumSquares + rtt * rtt];
    time += 0.000023;
    lines.push(`[${time.toFixed(6)}] 64 bytes from 10.213.7.2: icmp_seq=${i % 65_536} ttl=64 time=${rtt.toFixed(3)} ms`);
  }
  const avg = sum / count;
  const mdev = Math.sqrt(sumSquares / count - avg * avg);
  lines.push(
    '',
    '--- 10.213.7.2 ping statistics ---',
    `${count} packets transmitted, ${count} received, 0% packet loss, time 2301ms`,
    `rtt min/avg/max/mdev = ${min.toFixed(3)}/${avg.toFixed(3)}/${max.toFixed(3)}/${mdev.toFixed(3)} ms, pipe 2, ipg/ewma 0.023/0.052 ms`,
    '',
  );
  return lines.join('\n');
}
