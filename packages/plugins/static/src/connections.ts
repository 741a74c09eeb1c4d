import type { SshHost } from '@netbench/plugin-api';

export const CONNECTION = 'connection';

// Open connections of this process by run and ledger id, so teardown of a
// `connection` resource can close it without a closure from provision. In a
// fresh process (`netbench cleanup`) there is nothing here: the connection
// died with the process that made it, and the host's reaper stopped what it ran.
const open = new Map<string, SshHost>();
const key = (runId: string, id: string) => `${runId}\u0000${id}`;

export function connectionId(hostId: string): string {
  return `ssh@${hostId}`;
}

export function remember(runId: string, id: string, host: SshHost): void {
  open.set(key(runId, id), host);
}

/** Close the connection if this process holds it. Idempotent. */
export async function closeConnection(runId: string, id: string): Promise<void> {
  const host = open.get(key(runId, id));
  open.delete(key(runId, id));
  await host?.close();
}
