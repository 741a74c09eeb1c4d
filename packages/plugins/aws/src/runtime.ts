// What needs the AWS SDK, loaded on first use: `netbench plan` (schema, cost) never pays for importing it.
export { admitAwsPeers } from './admit-peers.js';
export { cleanupTagged } from './cleanup.js';
export { AwsClients } from './clients.js';
export { onlineChecks } from './diagnose.js';
export { launchFleet } from './fleet.js';
export { connectFleet, provisionAws } from './provision.js';
export { reattachAws } from './reattach.js';
export { teardownResource } from './teardown.js';
