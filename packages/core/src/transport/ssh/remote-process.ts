import { PassThrough } from 'node:stream';
import type { ExecResult, HostProcess } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';
import type { ClientChannel } from 'ssh2';
import { PID_MARK } from './reaper-script.js';
import { remoteCommand } from './remote-command.js';
import { channelOutcome, type SshSession } from './ssh-session.js';

/** A process on the far side of a channel, plus a way to stop waiting for it. */
export interface RemoteProcess extends HostProcess {
  /** Close the channel and settle `exited` now (code null) when the host no longer answers. */
  abandon(): void;
}

const MAX_PID_SEARCH = 8192;

/**
 * Start `argv` on the session's host. Returns at once (the channel opens in
 * the background; stdin written meanwhile is buffered). `kill` sends the
 * signal both as an SSH `signal` request and, since sshd ignores those once
 * stdin is closed or on old servers, as `kill` of the remote process group.
 */
export function startRemoteProcess(
  session: Promise<SshSession>,
  argv: readonly string[],
  options: { env?: Readonly<Record<string, string>>; signal?: AbortSignal },
): RemoteProcess {
  const began = Date.now();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  // Buffers, decoded once at the end, so a UTF-8 character split across packets survives.
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let pid: number | undefined;
  let channel: ClientChannel | undefined;
  let live: SshSession | undefined;
  let pendingSignal: string | undefined;
  let exit: { code: number | null; signal: string | null } | undefined;
  let settled = false;
  let resolveExited!: (result: ExecResult) => void;
  let rejectExited!: (error: unknown) => void;
  const exited = new Promise<ExecResult>((resolve, reject) => {
    resolveExited = resolve;
    rejectExited = reject;
  });
  // Callers that only use the streams must not see an unhandled rejection.
  exited.catch(() => {});

  const finish = (error?: unknown) => {
    if (settled) return;
    settled = true;
    options.signal?.removeEventListener('abort', onAbort);
    if (!stdout.writableEnded) stdout.end();
    if (!stderr.writableEnded) stderr.end();
    if (error) rejectExited(error);
    else
      resolveExited({
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
        code: exit?.code ?? null,
        signal: exit?.signal ?? null,
        durationMs: Date.now() - began,
      });
  };

  let command: number | undefined;
  const signalGroup = (signal: string) => {
    if (live && command !== undefined) void live.signalCommand(command, pid, signal).catch(() => {});
    else pendingSignal = signal;
  };

  // stderr starts with the pid line; strip it, and what sshd and the login
  // shell printed before it ("Could not chdir to home directory", rc-file
  // noise): that is not the command's output, and tools parse stderr.
  let head: Buffer | undefined = Buffer.alloc(0);
  const passErr = (chunk: Buffer) => {
    err.push(chunk);
    stderr.write(chunk);
  };
  const onStderr = (chunk: Buffer) => {
    if (!head) return passErr(chunk);
    head = Buffer.concat([head, chunk]);
    const text = head.toString('latin1');
    const at = text.indexOf(PID_MARK);
    const end = at >= 0 ? text.indexOf('\n', at) : -1;
    if (at >= 0 && end >= 0) {
      pid = Number(text.slice(at + PID_MARK.length, end));
      const rest = head.subarray(end + 1);
      head = undefined;
      if (rest.length) passErr(rest);
    } else if (head.length > MAX_PID_SEARCH) {
      const all = head;
      head = undefined;
      passErr(all);
    }
  };

  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (settled || (channel && channelOutcome(channel).exit)) return;
    try {
      channel?.signal(signal);
    } catch {
      /* unknown to ssh2 or channel closing: the group kill below still runs */
    }
    signalGroup(signal);
  };
  const onAbort = () => kill('SIGTERM');

  const abandon = () => {
    try {
      channel?.close();
    } catch {
      /* already closed */
    }
    finish();
  };

  void (async () => {
    live = await session;
    command = live.nextCommand();
    const commandLine = remoteCommand(argv, options.env, { token: live.token, command });
    // Killed while the connection was being made: the mark makes the command exit before it starts.
    if (pendingSignal) signalGroup(pendingSignal);
    const opened = await live.exec(commandLine);
    channel = opened;
    opened.on('error', () => {});
    opened.on('data', (chunk: Buffer) => {
      out.push(chunk);
      stdout.write(chunk);
    });
    opened.stderr.on('data', onStderr);
    const outcome = channelOutcome(opened);
    void outcome.closed.then(async () => {
      // ssh2 closes after stdout ended; stderr may still hold its last chunk.
      if (!opened.stderr.readableEnded) {
        await new Promise<void>((done) => {
          const t = setTimeout(done, 1000);
          opened.stderr.once('end', () => {
            clearTimeout(t);
            done();
          });
        });
      }
      exit = outcome.exit;
      if (head?.length) passErr(head);
      head = undefined;
      if (exit || settled) return finish();
      finish(live?.lost ?? new NetbenchError(`the channel running ${argv[0]} on ${live?.label} closed without an exit status`));
    });
    stdin.on('error', () => {});
    stdin.pipe(opened);
  })().catch((error: unknown) => finish(error));

  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  return {
    get pid() {
      return pid;
    },
    stdout,
    stderr,
    stdin,
    exited,
    kill,
    abandon,
  };
}
