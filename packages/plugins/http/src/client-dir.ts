import type { Host } from '@netbench/plugin-api';
import { NetbenchError } from '@netbench/plugin-api';

const TIMEOUT_MS = 30_000;
const CLIENT_DIR_RE = /^\/[A-Za-z0-9._/-]*\/netbench-http-client-[A-Za-z0-9-]+\.[A-Za-z0-9]+$/;

/** A private directory on the client host for a trial's files (ab's CSV, a wrk script); `remove` deletes it. */
export interface ClientDir {
  readonly path: string;
  write(name: string, content: string): Promise<string>;
  read(name: string): Promise<string | undefined>;
  remove(): Promise<void>;
}

export async function makeClientDir(host: Host, runId: string, signal: AbortSignal): Promise<ClientDir> {
  const made = await host.exec(['mktemp', '-d', '-t', `netbench-http-client-${runId.replace(/[^A-Za-z0-9-]/g, '-')}.XXXXXXXX`], { signal, timeoutMs: TIMEOUT_MS });
  const path = made.stdout.trim();
  if (made.code !== 0 || !CLIENT_DIR_RE.test(path)) {
    throw new NetbenchError(`mktemp -d on ${host.name} failed: ${(made.stderr || made.stdout).trim().slice(0, 200)}`);
  }
  return {
    path,
    async write(name, content) {
      const file = `${path}/${name}`;
      const result = await host.exec(['sh', '-c', 'cat > "$1"', 'sh', file], { signal, timeoutMs: TIMEOUT_MS, stdin: content });
      if (result.code !== 0) throw new NetbenchError(`cannot write ${file} on ${host.name}: ${result.stderr.trim()}`);
      return file;
    },
    async read(name) {
      const result = await host.exec(['cat', '--', `${path}/${name}`], { signal, timeoutMs: TIMEOUT_MS });
      return result.code === 0 ? result.stdout : undefined;
    },
    async remove() {
      await host.exec(['rm', '-rf', '--', path], { timeoutMs: TIMEOUT_MS }).catch(() => undefined);
    },
  };
}
