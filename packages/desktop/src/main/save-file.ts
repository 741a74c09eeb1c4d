import { writeFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { NetbenchError } from '@netbench/plugin-api';
import type { SaveFileRequest, SaveFileResult } from '../shared/bridge-types.js';

/**
 * Asks the user where to save (Electron's save dialog); resolves with an
 * absolute path, or `undefined` when the dialog was cancelled.
 */
export type ChooseSavePath = (file: SaveFileRequest) => Promise<string | undefined>;

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Save a file the renderer made (a run export, a chart as PNG/SVG) where
 * the user chose. The renderer never names the folder: the path comes from
 * the dialog the main process shows, so a compromised page cannot write
 * anywhere by itself.
 */
export async function saveRendererFile(file: SaveFileRequest, choose: ChooseSavePath): Promise<SaveFileResult> {
  if (file.encoding === 'base64' && (file.content.length % 4 !== 0 || !BASE64_RE.test(file.content))) {
    throw new NetbenchError(`${file.fileName}: the content is not base64`);
  }
  const path = await choose(file);
  if (path === undefined) return { saved: false };
  if (!isAbsolute(path)) throw new NetbenchError(`the save dialog returned a relative path (${path})`);
  const bytes = file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
  await writeFile(path, bytes);
  return { saved: true, path, bytes: bytes.length };
}
