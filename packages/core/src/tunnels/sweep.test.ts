import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { asOtherUser, isRoot, OTHER_USER, otherUid, sharedStandIn } from '../run-id/test-support/other-user.js';
import { daemonArgv } from './commands.js';
import { ENDPOINT_RECORD, ENDPOINT_RESOURCE } from './running-tunnel.js';
import { sweepTunnelEnds } from './sweep.js';

// A private stand-in for /dev/shm: the real one holds other runs' tunnels, which a test must never sweep.
const base = existsSync('/dev/shm') ? '/dev/shm' : undefined;
let shm: string | undefined;
afterEach(() => {
  if (shm) rmSync(shm, { recursive: true, force: true });
});

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((r) => setTimeout(r, 20));
}

/** An end as `tunnelUp` leaves it: 0700, its ledger entry beside its files. */
function madeEnd(runId: string, end: string, iface = 'nbw00000000a'): string {
  const root = join(shm!, `netbench-${runId}`);
  const dir = join(root, end);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  chmodSync(dir, 0o700);
  const resource = { type: ENDPOINT_RESOURCE, id: end, data: { dir, iface, kernelLink: false, runId, tunnel: end.slice(0, -2), type: 'wireguard', sameMachine: true } };
  writeFileSync(join(dir, ENDPOINT_RECORD), `${JSON.stringify(resource)}\n`, { mode: 0o600 });
  return dir;
}

/** A daemon of some run of root's (a real process), recorded as the daemon wrapper records it: pid and start time. */
async function daemon(dir: string): Promise<{ pid: number; line: string }> {
  const [command, ...args] = daemonArgv(`${dir}/d.pid`, `${dir}/d.log`, ['sleep', '60']);
  expect(spawnSync(command!, args).status).toBe(0);
  await until(() => existsSync(`${dir}/d.pid`) && readFileSync(`${dir}/d.pid`, 'utf8').endsWith('\n'));
  const line = readFileSync(`${dir}/d.pid`, 'utf8');
  return { pid: Number(line.split(' ')[0]), line };
}

describe.skipIf(!base)('cleanup --all sweeping tunnel ends by their directory', () => {
  test('an end whose run.lock names a live process is spared (a run from another runs folder); once it is dead, the end is undone', async () => {
    shm = sharedStandIn('nbt-sweep-');
    const runId = '20261128-120000-sweep1';
    const end = madeEnd(runId, 'wg-a');
    writeFileSync(join(end, 'private.key'), 'not a real key\n');
    // The "run" is a child process; its lock is what `tunnelUp` writes on each end.
    const run = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(join(end, 'run.lock'), `${JSON.stringify({ pid: run.pid, hostname: hostname(), runId })}\n`);

    const alive = await sweepTunnelEnds({ excludeRunIds: [] }, shm);
    expect(alive.deleted).toEqual([]);
    expect(alive.failed).toEqual([]);
    expect(alive.spared.map((s) => [s.resource.id, s.reason])).toEqual([['wg-a', `in use by live run ${runId} (pid ${run.pid})`]]);
    expect(existsSync(join(end, 'private.key'))).toBe(true);

    run.kill('SIGKILL');
    await new Promise((resolve) => run.once('exit', resolve));
    const dead = await sweepTunnelEnds({ excludeRunIds: [] }, shm);
    expect(dead.failed).toEqual([]);
    expect(dead.deleted.map((r) => r.id)).toEqual(['wg-a']);
    expect(existsSync(join(shm, `netbench-${runId}`))).toBe(false);
  });

  test("only ends netbench made are undone: not 0700, or without their ledger entry, or with another end's, they are left alone and their pids live on", async () => {
    shm = sharedStandIn('nbt-sweep-');
    const runId = '20261128-120000-sweep2';
    const ours = madeEnd(runId, 'ok-a');
    const { pid: oursPid } = await daemon(ours);
    const open = madeEnd(runId, 'open-a');
    chmodSync(open, 0o755);
    const bare = madeEnd(runId, 'bare-a');
    rmSync(join(bare, ENDPOINT_RECORD));
    const other = madeEnd(runId, 'other-a');
    writeFileSync(join(other, ENDPOINT_RECORD), readFileSync(join(ours, ENDPOINT_RECORD)));
    // Each names the same live process, start time and all.
    const { pid, line } = await daemon(madeEnd('20261128-120000-sweep3', 'keep-a'));
    for (const dir of [open, bare, other]) writeFileSync(join(dir, 'wireguard-go.pid'), line);

    const swept = await sweepTunnelEnds({ excludeRunIds: ['20261128-120000-sweep3'] }, shm);
    expect(swept.failed).toEqual([]);
    expect(swept.deleted.map((r) => r.id)).toEqual(['ok-a']);
    const reasons = Object.fromEntries(swept.spared.map((s) => [s.resource.id, s.reason]));
    expect(reasons['open-a']).toMatch(
      new RegExp(
        `^left alone: ${open}: its mode is 0755, not 0700; netbench undoes only directories owned by the user running netbench \\(.*uid ${process.geteuid!()}\\)?\\), mode 0700$`,
      ),
    );
    expect(reasons['bare-a']).toMatch(new RegExp(`^left alone: ${bare} holds no ${ENDPOINT_RECORD}`));
    expect(reasons['other-a']).toBe(`left alone: ${other}/${ENDPOINT_RECORD} does not describe this tunnel end`);
    await until(() => !alive(oursPid));
    expect(alive(oursPid)).toBe(false);
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGKILL');
  });

  // Root only: only root can make a directory another user owns (the user is added with useradd when absent).
  test.skipIf(!isRoot)('a root sweep kills no process named by pid files in directories another local user made', async () => {
    shm = sharedStandIn('nbt-sweep-');
    const { pid, line } = await daemon(madeEnd('20261128-120000-sweep4', 'keep-a'));
    const runId = '20261128-120000-forged';
    const root = join(shm, `netbench-${runId}`);
    const dir = join(root, 'wg-a');
    // Their directories, their pid file naming root's process, even a ledger entry copied from a real end.
    const record = readFileSync(join(shm, 'netbench-20261128-120000-sweep4', 'keep-a', ENDPOINT_RECORD), 'utf8')
      .replaceAll('20261128-120000-sweep4', runId)
      .replaceAll('keep-a', 'wg-a');
    const forged = asOtherUser(['sh', '-c', 'mkdir -m 0700 -- "$1" "$2" && printf %s "$3" > "$2/wireguard-go.pid" && cat > "$2/ledger-entry.json"', 'sh', root, dir, line], record);
    expect(forged.status, forged.stderr).toBe(0);
    // And one inside a directory of root's own that others may write in.
    const open = join(shm, 'netbench-20261128-120000-opened');
    mkdirSync(open);
    chmodSync(open, 0o1777);
    expect(asOtherUser(['sh', '-c', 'mkdir -m 0700 -- "$1" && printf %s "$2" > "$1/charon.pid"', 'sh', join(open, 'ipsec-b'), line]).status).toBe(0);

    const swept = await sweepTunnelEnds({ excludeRunIds: ['20261128-120000-sweep4'] }, shm);
    expect(swept.deleted).toEqual([]);
    expect(swept.failed).toEqual([]);
    const reasons = Object.fromEntries(swept.spared.map((s) => [s.resource.id, s.reason]));
    expect(reasons['wg-a']).toBe(
      `left alone: ${root}: it is owned by ${OTHER_USER} (uid ${otherUid()}) with mode 0700; netbench undoes only directories owned by the user running netbench (root (uid 0)), writable by no one else`,
    );
    expect(reasons['ipsec-b']).toMatch(new RegExp(`^left alone: ${open}: its mode 01777 lets others write in it`));
    expect(alive(pid)).toBe(true);
    expect(existsSync(join(dir, 'wireguard-go.pid'))).toBe(true);
    process.kill(pid, 'SIGKILL');
  });
});
