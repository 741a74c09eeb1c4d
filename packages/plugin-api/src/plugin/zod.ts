// The one module that imports zod: every schema of netbench — the SDK's, the core's, each plugin's through
// `import { z } from '@netbench/plugin-api'` — is built by the same copy, so one parse validates a whole spec.
export { z } from 'zod';
