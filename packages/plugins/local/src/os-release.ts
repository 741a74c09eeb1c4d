import { readFile } from 'node:fs/promises';

/** `PRETTY_NAME` of /etc/os-release (namespaces share the file system, so it holds for every host). */
export async function osRelease(): Promise<string | undefined> {
  try {
    const text = await readFile('/etc/os-release', 'utf8');
    const match = /^PRETTY_NAME=(.*)$/m.exec(text);
    return match?.[1]?.trim().replace(/^(["'])(.*)\1$/, '$2');
  } catch {
    return undefined;
  }
}
