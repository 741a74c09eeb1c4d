// Public entry of @netbench/desktop for Node (the CLI's `netbench ui`, tests, benches).
// Electron's own entry is electron-main.js; it is not imported from here, so Node never loads Electron.

export type { BridgeApi, BridgeEvent, NetbenchBridge, WizardAnswers } from '../shared/bridge-types.js';
export type { BrowserServer, BrowserServerOptions } from './browser-server.js';
export { startBrowserServer } from './browser-server.js';
export { CONTENT_SECURITY_POLICY } from './content-security-policy.js';
export type { DesktopApi, DesktopApiOptions } from './desktop-api.js';
export { createDesktopApi, defaultExamplesDir } from './desktop-api.js';
export { dispatchCall } from './dispatch-call.js';
export { electronBinary } from './electron-binary.js';
export { generateSpec } from './generate-spec.js';
export type { BrowserUi } from './launch-ui.js';
export { launchElectron, serveBrowserUi } from './launch-ui.js';
export { rendererDir } from './renderer-dir.js';
export type { RunControlOptions, RunFunction } from './run-control.js';
export { RunControl } from './run-control.js';
