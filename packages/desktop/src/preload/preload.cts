// The only thing the renderer gets from Electron: `window.netbench`, a typed
// bridge with two functions. Sandboxed preloads are CommonJS and may
// require only 'electron'; no Node API is exposed.
import electron = require('electron');

import type { IpcRendererEvent } from 'electron';
import type { BridgeArg, BridgeEnvelope, BridgeEvent, BridgeMethod, BridgeResult, NetbenchBridge } from '../shared/bridge-types.js';

// Literal copies of IPC_CALL/IPC_EVENT: a sandboxed preload cannot import the shared module at runtime.
const IPC_CALL = 'netbench:call';
const IPC_EVENT = 'netbench:event';

const bridge: NetbenchBridge = {
  call<M extends BridgeMethod>(method: M, arg: BridgeArg<M>): Promise<BridgeEnvelope<BridgeResult<M>>> {
    return electron.ipcRenderer.invoke(IPC_CALL, method, arg) as Promise<BridgeEnvelope<BridgeResult<M>>>;
  },
  onEvent(listener: (event: BridgeEvent) => void): () => void {
    // The IpcRendererEvent (with `sender`) is not passed on: it would leak ipcRenderer into the page.
    const wrapped = (_event: IpcRendererEvent, payload: BridgeEvent) => listener(payload);
    electron.ipcRenderer.on(IPC_EVENT, wrapped);
    return () => electron.ipcRenderer.removeListener(IPC_EVENT, wrapped);
  },
};

electron.contextBridge.exposeInMainWorld('netbench', bridge);
