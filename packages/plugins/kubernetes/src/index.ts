// Public entry of @netbench/plugin-kubernetes: the plugin (default) and the plain pieces other code may reuse.

export { CHANNEL, execEnd, execPath } from './exec-channel.js';
export type { KubernetesHostConfig, PlacementConfig } from './host-schema.js';
export { hostSchema } from './host-schema.js';
export { kubernetesPlugin as default, kubernetesPlugin } from './kubernetes-plugin.js';
export type { Affinity, Placement } from './placement.js';
export { PlacementError, planPlacement } from './placement.js';
