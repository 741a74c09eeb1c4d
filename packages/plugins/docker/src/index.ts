// Public entry of @netbench/plugin-docker: the plugin (default) and its host fields.
export { dockerPlugin as default, dockerPlugin } from './docker-plugin.js';
export type { DockerHostConfig, LinkConfig } from './host-schema.js';
export { DEFAULT_IMAGE, hostSchema } from './host-schema.js';
export { containerName, networkName, RUN_LABEL } from './naming.js';
