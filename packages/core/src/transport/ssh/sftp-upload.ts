import { NetbenchError } from '@netbench/plugin-api';
import type { SshSession } from './ssh-session.js';

/** Write a file over SFTP (its own channel, closed after), then set its mode exactly (the server's umask applies at creation). */
export async function uploadFile(session: SshSession, remotePath: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const sftp = await session.sftp();
  try {
    await new Promise<void>((resolve, reject) => {
      sftp.writeFile(remotePath, Buffer.from(content), mode !== undefined ? { mode } : {}, (error) => (error ? reject(error) : resolve()));
    });
    if (mode !== undefined) {
      await new Promise<void>((resolve, reject) => sftp.chmod(remotePath, mode, (error) => (error ? reject(error) : resolve())));
    }
  } catch (error) {
    throw new NetbenchError(`upload of ${remotePath} to ${session.label} failed: ${(error as Error).message}`, { cause: error });
  } finally {
    sftp.end();
  }
}
