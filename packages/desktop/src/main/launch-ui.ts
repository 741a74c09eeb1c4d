import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NetbenchError } from '@netbench/plugin-api';
import { type BrowserServer, startBrowserServer } from './browser-server.js';
import { createDesktopApi, type DesktopApi, type DesktopApiOptions } from './desktop-api.js';
import { electronBinary } from './electron-binary.js';

export interface BrowserUi {
  readonly server: BrowserServer;
  readonly desktop: DesktopApi;
  /** Cancel running runs (they tear down), then stop serving. */
  close(): Promise<void>;
}

/** `netbench ui --browser`: the desktop app's main-process half, served on loopback. */
export async function serveBrowserUi(options: Omit<DesktopApiOptions, 'shell'> & { port?: number; token?: string; staticDir?: string }): Promise<BrowserUi> {
  const desktop = createDesktopApi({ ...options, shell: 'browser' });
  const server = await startBrowserServer({
    api: desktop.api,
    subscribe: (listener) => desktop.runs.subscribe(listener),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(options.staticDir !== undefined ? { staticDir: options.staticDir } : {}),
  });
  return {
    server,
    desktop,
    close: async () => {
      await desktop.dispose();
      await server.close();
    },
  };
}

/**
 * `netbench ui`: start Electron on this package and wait for it to quit.
 * Throws when the Electron binary is not installed, saying how to use the
 * browser instead.
 */
export async function launchElectron(): Promise<number> {
  const binary = electronBinary();
  if (!binary) {
    throw new NetbenchError(
      'the Electron binary is not installed here (npm skipped its download, e.g. ELECTRON_SKIP_BINARY_DOWNLOAD=1). ' +
        'Use `netbench ui --browser` to open the same app in a web browser, or install Electron with `npx install-electron` in packages/desktop.',
    );
  }
  const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const child = spawn(binary, [appDir], { stdio: 'inherit' });
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolvePromise(code ?? 0));
  });
}
