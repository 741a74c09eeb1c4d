import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { machineLockDir, removeMachineLock, writeMachineLock } from './run-lock.js';
import { asOtherUser, isRoot, OTHER_USER, otherUid, sharedStandIn } from './test-support/other-user.js';

let shm: string | undefined;
afterEach(() => {
  if (shm) rmSync(shm, { recursive: true, force: true });
});
const runId = '20261207-050000-squat1';
const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8);

describe("the run's RAM directory is used only when it is this user's own", () => {
  it("is made exclusively, 0755; a kept run's own directory (0755 or 0700) is used again", async () => {
    shm = sharedStandIn('nbt-ramdir-');
    const dir = machineLockDir(runId, shm);
    expect(await writeMachineLock(runId, shm)).toBeUndefined();
    expect(mode(dir)).toBe('755');
    await removeMachineLock(runId, shm, { keepDir: true });
    expect(readdirSync(dir)).toEqual([]);
    // Tunnels tighten it to 0700: still this run's.
    rmSync(dir, { recursive: true });
    mkdirSync(dir, { mode: 0o700 });
    expect(await writeMachineLock(runId, shm)).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, 'run.lock'), 'utf8'))).toMatchObject({ pid: process.pid, runId });
  });

  it('refuses a directory of its name that others may write in, or a link to one, writing nothing there', async () => {
    shm = sharedStandIn('nbt-ramdir-');
    const dir = machineLockDir(runId, shm);
    mkdirSync(dir);
    // chmod, not mkdir's mode: that one passes through the umask.
    chmodSync(dir, 0o777);
    await expect(writeMachineLock(runId, shm)).rejects.toThrow(
      `refusing the run's RAM directory ${dir}: its mode 0777 lets others write in it; netbench makes it itself, owned by the user running netbench`,
    );
    await expect(writeMachineLock(runId, shm)).rejects.toThrow(`remove it (rm -rf -- ${dir}) and try again`);
    expect(readdirSync(dir)).toEqual([]);

    // A link to a directory of ours elsewhere: writing through it would put the lock (and the keys) wherever it points.
    const elsewhere = join(shm, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    rmSync(dir, { recursive: true });
    symlinkSync(elsewhere, dir);
    await expect(writeMachineLock(runId, shm)).rejects.toThrow(`refusing the run's RAM directory ${dir}: it is a symbolic link`);
    writeFileSync(join(elsewhere, 'run.lock'), "not the run's\n");
    // Cleaning up does not remove through the link either.
    await removeMachineLock(runId, shm);
    expect(readFileSync(join(elsewhere, 'run.lock'), 'utf8')).toBe("not the run's\n");
    expect(lstatSync(dir).isSymbolicLink()).toBe(true);
  });

  // Root only: only root can make a directory that is another user's.
  it.skipIf(!isRoot)('refuses a directory another local user made first under the run id, naming its owner and mode; cleanup leaves it alone', async () => {
    shm = sharedStandIn('nbt-ramdir-');
    const dir = machineLockDir(runId, shm);
    const made = asOtherUser(['mkdir', '-m', '0777', '--', dir]);
    expect(made.status, made.stderr).toBe(0);
    await expect(writeMachineLock(runId, shm)).rejects.toThrow(
      `refusing the run's RAM directory ${dir}: it is owned by ${OTHER_USER} (uid ${otherUid()}) with mode 0777; netbench makes it itself, owned by the user running netbench (root (uid 0)), writable by no one else`,
    );
    expect(readdirSync(dir)).toEqual([]);
    // Theirs with a lock of theirs: a root cleanup removes nothing in it.
    expect(asOtherUser(['sh', '-c', 'echo theirs > "$1"', 'sh', join(dir, 'run.lock')]).status).toBe(0);
    await removeMachineLock(runId, shm);
    expect(readFileSync(join(dir, 'run.lock'), 'utf8')).toBe('theirs\n');
  });
});
