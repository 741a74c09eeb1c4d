// Electron's entry (package.json "main"). The only module that imports Electron:
// everything it wires together is a plain module tested without Electron.
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '@netbench/core';
import { app, BrowserWindow, dialog, type IpcMainInvokeEvent, ipcMain, protocol, shell } from 'electron';
import { IPC_CALL, IPC_EVENT } from '../shared/bridge-types.js';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.js';
import { createDesktopApi } from './desktop-api.js';
import { dispatchCall } from './dispatch-call.js';
import { desktopPluginRoots } from './plugin-roots.js';
import { rendererDir } from './renderer-dir.js';

const SCHEME = 'netbench';
const ORIGIN = `${SCHEME}://app`;
const here = dirname(fileURLToPath(import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };

// A privileged standard scheme gives the renderer a real origin ('self' in the CSP) without file:// access.
// codeCache: V8 keeps the compiled renderer (ECharts is ~0.7 MB of script) instead of compiling it on every load.
protocol.registerSchemesAsPrivileged([{ scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);

const desktop = createDesktopApi({
  registry: createRegistry({ searchDirs: desktopPluginRoots() }),
  version: app.getVersion(),
  shell: 'electron',
  searchDirs: desktopPluginRoots(),
  checkWorker: { searchDirs: desktopPluginRoots() },
  // Exports and chart pictures: the user picks the place in a native dialog; the renderer only suggests a name.
  chooseSavePath: async (file) => {
    const extension = extname(file.fileName).slice(1);
    const options = {
      title: `Save ${file.fileName}`,
      defaultPath: join(app.getPath('downloads'), file.fileName),
      filters: [...(extension ? [{ name: extension.toUpperCase(), extensions: [extension] }] : []), { name: 'All files', extensions: ['*'] }],
    };
    const parent = BrowserWindow.getFocusedWindow();
    const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? undefined : result.filePath;
  },
});

app.enableSandbox();

app
  .whenReady()
  .then(() => {
    const root = rendererDir();
    protocol.handle(SCHEME, async (request) => {
      const path = normalize(decodeURIComponent(new URL(request.url).pathname)).replace(/^([/\\])+/, '');
      const file = join(root, path === '' ? 'index.html' : path);
      if (!file.startsWith(root + sep)) return new Response('forbidden', { status: 403 });
      try {
        return new Response(await readFile(file), {
          headers: { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
        });
      } catch {
        return new Response('not found', { status: 404 });
      }
    });

    // Only the app's own frames may call the bridge; arguments are validated in dispatchCall.
    ipcMain.handle(IPC_CALL, (event: IpcMainInvokeEvent, method: unknown, arg: unknown) => {
      if (!event.senderFrame || new URL(event.senderFrame.url).origin !== ORIGIN)
        return { ok: false, error: { name: 'BridgeError', message: 'call from a foreign frame refused' } };
      return dispatchCall(desktop.api, method, arg);
    });
    desktop.runs.subscribe((event) => {
      for (const window of BrowserWindow.getAllWindows()) window.webContents.send(IPC_EVENT, event);
    });
    createWindow();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    });
  })
  .catch((error: unknown) => {
    console.error(error);
    app.exit(1);
  });

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    title: 'netbench',
    webPreferences: {
      preload: join(here, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  // No navigation away from the app and no new windows; http(s) links open in the system browser.
  window.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== ORIGIN) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  void window.loadURL(`${ORIGIN}/index.html`);
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

let quitting = false;
app.on('before-quit', (event) => {
  // Running runs are cancelled and torn down before the process exits.
  if (quitting || desktop.runs.active().length === 0) return;
  event.preventDefault();
  quitting = true;
  void desktop.dispose().finally(() => app.quit());
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
