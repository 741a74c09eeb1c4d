import { existsSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { processHost } from './process-host.js';

// With autogroup scheduling (sched_autogroup_enabled=1, Debian's and most
// distributions' default) the CPU share follows the session: a tool left in
// netbench's session would share one slice with netbench and everything else
// started from its terminal, while the same command typed in a shell gets a
// session (an autogroup) of its own. Real processes, read back from /proc.
const sessionOf = (pid: number) =>
  Number(
    readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ')[3],
  );
const autogroupOf = (pid: number) => (existsSync(`/proc/${pid}/autogroup`) ? readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0] : undefined);

it('runs every tool it spawns in a session (so an autogroup) of its own, as a shell-started command', async () => {
  const host = processHost({ id: 'h', name: 'h', cloud: 'test', internalIp: '127.0.0.1' });
  // A tool that forks, as netserver forks its test processes and nginx its workers.
  const tool = host.spawn(['sh', '-c', 'sleep 30 & echo $!; wait']);
  try {
    const child = Number(await new Promise<string>((resolve) => tool.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
    const pid = tool.pid!;
    expect(sessionOf(pid)).toBe(pid);
    expect(sessionOf(pid)).not.toBe(sessionOf(process.pid));
    // Its children stay in the tool's session, not netbench's.
    expect(sessionOf(child)).toBe(pid);
    const own = autogroupOf(process.pid);
    if (own !== undefined) {
      expect(autogroupOf(pid)).not.toBe(own);
      expect(autogroupOf(child)).toBe(autogroupOf(pid));
    }
  } finally {
    tool.kill('SIGKILL');
    await tool.exited;
  }
});
