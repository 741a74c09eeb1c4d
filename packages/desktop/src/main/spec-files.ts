import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { SpecEntry, SpecSource } from '../shared/bridge-types.js';

export interface SpecFolders {
  /** Shipped example specs (read only). */
  readonly examplesDir: string;
  /** Specs the user saved from the editor. */
  readonly specsDir: string;
}

const YAML_RE = /\.ya?ml$/;

/** Examples first, then saved specs, each sorted by name. A missing folder lists nothing. */
export async function listSpecs(folders: SpecFolders): Promise<SpecEntry[]> {
  const list = async (source: SpecSource, dir: string): Promise<SpecEntry[]> => {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((n) => YAML_RE.test(n)).sort();
    } catch {
      return [];
    }
    return Promise.all(names.map(async (name) => ({ source, name, title: titleOf(await readFile(join(dir, name), 'utf8')) })));
  };
  return [...(await list('example', folders.examplesDir)), ...(await list('saved', folders.specsDir))];
}

/** `name` is already validated as a bare file name (ipc-schemas), so it cannot leave the folder. */
export async function readSpec(folders: SpecFolders, source: SpecSource, name: string): Promise<{ text: string }> {
  return { text: await readFile(join(source === 'example' ? folders.examplesDir : folders.specsDir, name), 'utf8') };
}

export async function saveSpec(folders: SpecFolders, name: string, text: string): Promise<SpecEntry> {
  await mkdir(folders.specsDir, { recursive: true });
  await writeFile(join(folders.specsDir, name), text);
  return { source: 'saved', name, title: titleOf(text) };
}

/** The spec's description, else its first comment line, else nothing. */
function titleOf(text: string): string {
  try {
    const description = parseDocument(text).get('description');
    if (typeof description === 'string') return description;
  } catch {
    // An unparsable file still lists; the editor shows its problems.
  }
  const comment = text.split('\n').find((line) => line.startsWith('#'));
  return comment ? comment.replace(/^#+\s*/, '') : '';
}
