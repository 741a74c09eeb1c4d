import { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectSshHost } from './connect-ssh-host.js';
import { startTestSshd, type TestSshd } from './test-support/test-sshd.js';

// ssh2 leaves Nagle's algorithm on. A command's channel-open and
// exec requests are small packets sent back to back; with Nagle the second
// waited for the server's delayed ACK (~85 ms per command on the lab, ~4 ms
// without; `npm run bench overhead` shows it). The connection's own TCP
// socket must have TCP_NODELAY set.
let sshd: TestSshd;
beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

describe('the SSH connection socket', () => {
  it('has Nagle turned off (TCP_NODELAY) on the socket to the host, and commands still run over it', async () => {
    const calls: { remotePort: number | undefined; localPort: number | undefined; enable: boolean | undefined }[] = [];
    const original = Socket.prototype.setNoDelay;
    const spy = vi.spyOn(Socket.prototype, 'setNoDelay').mockImplementation(function (this: Socket, enable?: boolean) {
      // Recorded once connected, so the ports say which socket it was.
      const note = () => calls.push({ remotePort: this.remotePort, localPort: this.localPort, enable });
      if (this.remotePort === undefined) this.once('connect', note);
      else note();
      return original.call(this, enable);
    });
    try {
      const host = await connectSshHost({
        id: 'h',
        name: 'h',
        cloud: 'static',
        internalIp: '127.0.0.1',
        address: '127.0.0.1',
        port: sshd.port,
        user: 'root',
        privateKeyPath: sshd.clientKey,
        hostKey: { mode: 'known-hosts', file: sshd.knownHosts },
      });
      try {
        const result = await host.exec(['echo', 'ok'], { timeoutMs: 10_000 });
        expect(result.stdout.trim()).toBe('ok');
      } finally {
        await host.close();
      }
      expect(calls.filter((c) => c.remotePort === sshd.port && c.enable === true)).toHaveLength(1);
      expect(calls.filter((c) => c.remotePort === sshd.port && c.enable === false)).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });
});
