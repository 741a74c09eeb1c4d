import { NetbenchError } from '@netbench/plugin-api';
import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';

// node:crypto is loaded on first use: importing it cost every run ~9 ms of start-up, and a local run needs none of it.
const crypto = () => process.getBuiltinModule('node:crypto');

import type { SshHostFacts } from '@netbench/plugin-api';
import { CONGESTION_CONTROL_RE } from '@netbench/plugin-api/cloud-kit';
import { reaperScript } from './reaper-script.js';
import { killCommand } from './remote-command.js';

const OPEN_TIMEOUT_MS = 15_000;
const CLOSE_TIMEOUT_MS = 5_000;
const LIMIT_POLL_MS = 250;
// How long `facts` waits for the reaper's first lines before giving up on them (a caller then asks with commands).
const FACTS_TIMEOUT_MS = 15_000;
// OpenSSH refuses a session beyond MaxSessions (default 10) with "open failed" (reason 2; 1 on some servers).
const isSessionLimit = (error: unknown) => {
  const reason = (error as { reason?: number }).reason;
  return (reason === 1 || reason === 2) && /open failed|prohibited/i.test((error as Error).message);
};

/** What happened to a channel, recorded from the moment it opened (a quick command may exit before anyone listens). */
export interface ChannelOutcome {
  exit?: { code: number | null; signal: string | null };
  /** Resolves when the channel has closed. */
  readonly closed: Promise<void>;
}

const outcomes = new WeakMap<ClientChannel, ChannelOutcome>();

export function channelOutcome(channel: ClientChannel): ChannelOutcome {
  const outcome = outcomes.get(channel);
  if (!outcome) throw new Error('channel not opened by SshSession');
  return outcome;
}

/**
 * One live SSH connection (and the bastion connection it rides on, if any)
 * with its reaper channel. Every command is a channel on it. Once the
 * connection is lost, `lost` is set and every open channel closes.
 */
export class SshSession {
  lost: Error | undefined;
  private closing: Promise<void> | undefined;
  private readonly openChannels = new Set<ClientChannel>();
  private readonly channelClosed = new Set<() => void>();
  private reaper: ClientChannel | undefined;
  private clientClosed = false;
  private bastionClosed = false;
  /** Names the connection's session folder on the host (see `sessionDirExpression`). */
  readonly token = crypto().randomBytes(8).toString('hex');
  private commands = 0;
  /** PRETTY_NAME of /etc/os-release, once the reaper has printed it. */
  os: string | undefined;

  constructor(
    readonly label: string,
    readonly client: Client,
    private readonly bastion?: Client,
  ) {
    const onGone = (why: string) => () => {
      this.lost ??= new NetbenchError(`${why}`);
    };
    client.on('error', (error: Error) => {
      this.lost ??= new NetbenchError(`connection to ${label} failed: ${error.message}`);
    });
    client.on('close', () => {
      this.clientClosed = true;
      onGone(`connection to ${label} closed`)();
    });
    bastion?.on('close', () => {
      this.bastionClosed = true;
      onGone(`connection to the bastion of ${label} closed`)();
    });
  }

  /**
   * Open the reaper's channel. Its shell starts in the background (a login
   * shell can take a while): commands may start at once, since the session
   * folder's name is known. Its first three lines (OS name, congestion
   * control, CPU count) resolve `facts`.
   */
  async start(): Promise<void> {
    const channel = await this.exec(reaperScript(this.token));
    this.reaper = channel;
    let out = '';
    let settle!: (facts: SshHostFacts) => void;
    this.facts = new Promise<SshHostFacts>((resolve) => {
      settle = resolve;
    });
    // A reaper that ends (or stays silent) before its three lines leaves the facts unknown, never pending.
    const timer = setTimeout(() => done(), FACTS_TIMEOUT_MS);
    timer.unref();
    const done = (lines: readonly string[] = []) => {
      clearTimeout(timer);
      channel.off('data', onData);
      channel.off('close', onClose);
      const [os, congestionControl, cpuCount] = lines.map((line) => line.trim() || undefined);
      this.os = os;
      settle({
        ...(os !== undefined ? { os } : {}),
        ...(congestionControl !== undefined && CONGESTION_CONTROL_RE.test(congestionControl) ? { congestionControl } : {}),
        ...(cpuCount !== undefined && /^[1-9]\d*$/.test(cpuCount) ? { cpuCount } : {}),
      });
    };
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      if (lines.length > 3) done(lines.slice(0, 3));
    };
    const onClose = () => done();
    channel.on('data', onData);
    channel.once('close', onClose);
    channel.on('data', () => {});
    channel.stderr.on('data', () => {});
  }

  /** What the reaper printed of the machine as it started (see `start`). */
  facts: Promise<SshHostFacts> = Promise.resolve({});

  /**
   * Open an exec channel. Waits (up to 15 s) for another channel to close
   * when sshd's MaxSessions is reached, then reports that clearly.
   */
  async exec(command: string): Promise<ClientChannel> {
    const deadline = Date.now() + OPEN_TIMEOUT_MS;
    for (;;) {
      if (this.lost) throw this.lost;
      if (this.closing) throw new NetbenchError(`connection to ${this.label} is closed`);
      try {
        return await this.openOnce(command, deadline - Date.now());
      } catch (error) {
        const limited = isSessionLimit(error);
        if (!limited || Date.now() >= deadline) {
          if (limited) {
            throw new NetbenchError(
              `${this.label} refused another command channel: its sshd allows ${this.openChannels.size} at once (MaxSessions in sshd_config); raise MaxSessions or run fewer things at once`,
            );
          }
          throw error;
        }
        // sshd frees the slot a moment after the channel closes: poll as well as wait for closes.
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.channelClosed.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(LIMIT_POLL_MS, Math.max(0, deadline - Date.now())));
          this.channelClosed.add(wake);
        });
      }
    }
  }

  private openOnce(command: string, timeoutMs: number): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(
        () => {
          timedOut = true;
          reject(new NetbenchError(`${this.label} did not open a command channel within ${OPEN_TIMEOUT_MS} ms`));
        },
        Math.max(1, timeoutMs),
      );
      try {
        this.client.exec(command, (error, channel) => {
          clearTimeout(timer);
          if (error) return timedOut ? undefined : reject(error);
          // Opened after we gave up on it: nobody will read it.
          if (timedOut) return channel.close();
          this.openChannels.add(channel);
          // Synchronously, in ssh2's callback: the exit status may be in the same packet batch as the open reply.
          const outcome: ChannelOutcome = { closed: new Promise<void>((done) => channel.once('close', () => done())) };
          outcomes.set(channel, outcome);
          channel.once('exit', (code: number | null, signal?: string) => {
            outcome.exit = { code: code ?? null, signal: code === null || code === undefined ? (signal ?? null) : null };
          });
          channel.once('close', () => {
            this.openChannels.delete(channel);
            // Give sshd a moment to free the session slot before waiters retry.
            setTimeout(() => {
              for (const wake of [...this.channelClosed]) wake();
            }, 20);
          });
          resolve(channel);
        });
      } catch (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  }

  /** A number for the next command, which `remoteCommand` and `signalCommand` use to name it. */
  nextCommand(): number {
    return this.commands++;
  }

  /**
   * Signal a command's process group through the reaper (no new channel, no
   * shell start; works before the command has even started); without a
   * reaper, with `kill` on a channel of its own when the pid is known. Best
   * effort: the process may be gone already.
   */
  async signalCommand(command: number, pid: number | undefined, signal: string): Promise<void> {
    const name = signal.replace(/^SIG/, '');
    if (!/^[A-Z0-9]+$/.test(name)) throw new Error(`invalid signal ${JSON.stringify(signal)}`);
    const reaper = this.reaper;
    if (reaper?.writable && !this.lost) {
      reaper.write(`${name} ${command}\n`);
      return;
    }
    if (pid === undefined) return;
    const channel = await this.exec(killCommand(pid, signal));
    channel.on('data', () => {});
    channel.stderr.on('data', () => {});
    channel.end();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        channel.close();
        resolve();
      }, OPEN_TIMEOUT_MS);
      channel.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  sftp(): Promise<SFTPWrapper> {
    if (this.lost) return Promise.reject(this.lost);
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(new NetbenchError(`${this.label} did not open an SFTP session within ${OPEN_TIMEOUT_MS} ms`));
      }, OPEN_TIMEOUT_MS);
      this.client.sftp((error, sftp) => {
        clearTimeout(timer);
        if (timedOut) return sftp?.end();
        if (error) reject(new NetbenchError(`${this.label} refused SFTP: ${error.message} (is the sftp Subsystem enabled in sshd_config?)`));
        else resolve(sftp);
      });
    });
  }

  /**
   * Let the reaper stop what is still running (by closing its input), then
   * close the connection and the bastion's. Bounded; idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const reaper = this.reaper;
      if (reaper && !this.lost) {
        reaper.end();
        // Resolves at once when the reaper already ended.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
          void channelOutcome(reaper).closed.then(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (!this.clientClosed) await endClient(this.client);
      if (this.bastion && !this.bastionClosed) await endClient(this.bastion);
    })();
    return this.closing;
  }
}

async function endClient(client: Client): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      client.destroy();
      resolve();
    }, 2000);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    client.end();
  });
}
