import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpecFile } from './read-spec-file.js';

const OTHER = 'nb-sec-other';
const root = process.getuid?.() === 0;

/** An unprivileged second user (added once, kept for other test files). */
function otherUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, '--', OTHER], { encoding: 'utf8' }).trim());
  try {
    id('-u');
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', '--', OTHER], { stdio: 'ignore' });
    } catch {
      // Added meanwhile by another test file.
    }
  }
  return { uid: id('-u'), gid: id('-g') };
}

// Root only: the case is a root run of a spec in a folder another user can write (their checkout, a shared folder).
describe.skipIf(!root)('readSpecFile', () => {
  let base: string;
  let specDir: string;
  let secret: string;
  let other: { uid: number; gid: number };
  beforeAll(() => {
    other = otherUser();
    base = mkdtempSync(join(tmpdir(), 'nbt-spec-file-'));
    chmodSync(base, 0o755);
    specDir = join(base, 'spec');
    mkdirSync(specDir, { mode: 0o755 });
    chownSync(specDir, other.uid, other.gid);
    // Root's secret, outside the spec folder.
    secret = join(base, 'id_ed25519');
    writeFileSync(secret, 'PRIVATE KEY\n', { mode: 0o600 });
    writeFileSync(join(specDir, 'ok.lua'), 'wrk.path = "/"\n', { mode: 0o644 });
    mkdirSync(join(specDir, 'lua'));
    writeFileSync(join(specDir, 'lua', 'deep.lua'), '-- deep\n');
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const asOther = (...argv: string[]) => execFileSync('runuser', ['-u', OTHER, '--', ...argv]);

  it("reads the runner's own regular file under the spec folder, relative or absolute", async () => {
    await expect(readSpecFile('ok.lua', specDir, 'wrk script')).resolves.toBe('wrk.path = "/"\n');
    await expect(readSpecFile('./lua/deep.lua', specDir, 'wrk script')).resolves.toBe('-- deep\n');
    await expect(readSpecFile(join(specDir, 'ok.lua'), specDir, 'wrk script')).resolves.toBe('wrk.path = "/"\n');
  });

  it("refuses a file outside the spec folder, by path or through a link the folder's owner planted", async () => {
    await expect(readSpecFile(secret, specDir, 'wrk script')).rejects.toThrow(`wrk script ${secret}: is not under the spec's folder`);
    await expect(readSpecFile('../id_ed25519', specDir, 'wrk script')).rejects.toThrow(/is not under the spec's folder/);
    asOther('ln', '-s', secret, join(specDir, 'key.lua'));
    await expect(readSpecFile('key.lua', specDir, 'wrk script')).rejects.toThrow(/key\.lua: is a symbolic link/);
    // A folder on the way that is a link out of the spec folder.
    asOther('ln', '-s', base, join(specDir, 'up'));
    await expect(readSpecFile('up/id_ed25519', specDir, 'wrk script')).rejects.toThrow(/is not under the spec's folder/);
  });

  it("refuses another user's file, a file others may write, a FIFO, a folder and a hard link", async () => {
    asOther('sh', '-c', `echo 'os.execute("id")' > ${join(specDir, 'theirs.lua')}`);
    await expect(readSpecFile('theirs.lua', specDir, 'wrk script')).rejects.toThrow(`belongs to uid ${other.uid}, not to the user running netbench (uid 0)`);
    writeFileSync(join(specDir, 'open.lua'), '-- x\n');
    chmodSync(join(specDir, 'open.lua'), 0o666);
    await expect(readSpecFile('open.lua', specDir, 'wrk script')).rejects.toThrow(/others may write it \(mode 666\)/);
    execFileSync('mkfifo', [join(specDir, 'fifo.lua')]);
    await expect(readSpecFile('fifo.lua', specDir, 'wrk script')).rejects.toThrow(/is not a regular file/);
    await expect(readSpecFile('lua', specDir, 'wrk script')).rejects.toThrow(/is not a regular file/);
    linkSync(secret, join(specDir, 'hard.lua'));
    await expect(readSpecFile('hard.lua', specDir, 'wrk script')).rejects.toThrow(/has other hard links/);
  });

  it('refuses every file when the engine does not say where the spec is', async () => {
    await expect(readSpecFile('ok.lua', undefined, 'wrk script')).rejects.toThrow(/read only from under its folder/);
    await expect(readSpecFile('missing.lua', specDir, 'wrk script')).rejects.toThrow(/wrk script missing\.lua: ENOENT/);
  });
});
