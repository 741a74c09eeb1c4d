import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Vite build of the renderer: packages/desktop/dist/renderer (from src/main or dist/main alike). */
export function rendererDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/renderer');
}
