import { describe, expect, it } from 'vitest';
import { CHANNEL, closeFrame, decodeFrame, encodeFrame, execEnd, execPath, killArgv, parseStatus, withEnv, wrapForSignals } from './exec-channel.js';

describe('exec channel protocol', () => {
  it('builds the exec path with one command parameter per argument, never a shell string', () => {
    const path = execPath({ namespace: 'ns', pod: 'p', container: 'c', argv: ['echo', 'a b&c=d', ';'], stdin: false });
    const url = new URL(path, 'https://x');
    expect(url.pathname).toBe('/api/v1/namespaces/ns/pods/p/exec');
    expect(url.searchParams.getAll('command')).toEqual(['echo', 'a b&c=d', ';']);
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'command'))).toEqual({ stdout: 'true', stderr: 'true', stdin: 'false', tty: 'false', container: 'c' });
    expect(() => execPath({ namespace: 'ns', pod: 'p', container: 'c', argv: [], stdin: false })).toThrow();
  });

  it('frames carry the channel in the first byte; v5 close is [255, channel]', () => {
    expect([...encodeFrame(CHANNEL.stdin, 'hi')]).toEqual([0, 104, 105]);
    expect([...closeFrame(CHANNEL.stdin)]).toEqual([255, 0]);
    const { channel, payload } = decodeFrame(encodeFrame(CHANNEL.stderr, 'oops'));
    expect(channel).toBe(2);
    expect(payload.toString()).toBe('oops');
    expect(() => decodeFrame(new Uint8Array())).toThrow();
  });

  it('reads the exit code from the status channel', () => {
    expect(execEnd({ status: 'Success' })).toEqual({ kind: 'exited', code: 0 });
    expect(
      execEnd(parseStatus(Buffer.from(JSON.stringify({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '42' }] } })))),
    ).toEqual({ kind: 'exited', code: 42 });
    expect(execEnd({ status: 'Failure', reason: 'InternalError', message: 'exec: "iperf3": executable file not found in $PATH' })).toEqual({ kind: 'exited', code: 127 });
    expect(execEnd({ status: 'Failure', reason: 'InternalError', message: 'container not running' })).toEqual({ kind: 'not-started', message: 'container not running' });
    expect(execEnd(parseStatus(Buffer.from('not json')))).toMatchObject({ kind: 'not-started' });
  });

  it('wraps commands so their pid is known, arguments staying positional', () => {
    expect(wrapForSignals(['iperf3', '-s'], '/tmp/p.pid')).toEqual(['sh', '-c', 'echo $$ > "$0" && exec "$@"', '/tmp/p.pid', 'iperf3', '-s']);
    expect(withEnv(['x'], { A: '1; rm' })).toEqual(['env', 'A=1; rm', 'x']);
    expect(() => withEnv(['x'], { 'A B': '1' })).toThrow();
    expect(killArgv('/tmp/p.pid', 'SIGTERM')).toEqual(['sh', '-c', 'kill -s "$1" "$(cat "$0")"', '/tmp/p.pid', 'TERM']);
    expect(() => killArgv('/tmp/p.pid', 'TERM; reboot')).toThrow();
  });
});
