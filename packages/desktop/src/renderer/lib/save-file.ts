import { call, shell } from './bridge-client';
import { download } from './format';

/** What became of a save: shown next to the buttons. */
export type Saved = { readonly done: true; readonly message: string } | { readonly done: false };

/**
 * Save a file the page made. In Electron the main process shows its save
 * dialog and writes the file (the renderer has no file system); in a
 * browser (`netbench ui --browser`) it is a download.
 */
export async function saveFile(fileName: string, content: string | Uint8Array, mimeType: string): Promise<Saved> {
  if (shell === 'browser') {
    download(fileName, typeof content === 'string' ? content : new Blob([content as Uint8Array<ArrayBuffer>], { type: mimeType }), mimeType);
    return { done: true, message: `Downloaded ${fileName}` };
  }
  const encoded = typeof content === 'string' ? { content, encoding: 'utf8' as const } : { content: toBase64(content), encoding: 'base64' as const };
  const result = await call('saveFile', { fileName, mimeType, ...encoded });
  return result.saved ? { done: true, message: `Saved ${result.path ?? fileName}` } : { done: false };
}

/** The bytes of a `data:…;base64,` URL (ECharts' PNG): decoded here, since the CSP's connect-src refuses fetch(data:). */
export function dataUrlBytes(url: string): Uint8Array {
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) throw new Error('expected a base64 data URL');
  const binary = atob(url.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunks keep String.fromCharCode's argument list short on multi-megabyte pictures.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
