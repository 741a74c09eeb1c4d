#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node caches the compiled code of netbench and its dependencies on disk, so
// every command after the first starts faster.
enableCompileCache?.();
// A reader that stops early (`netbench schema | head -1`) closes the pipe: the
// output is no longer wanted, which is not a failure. Without this, the write
// error left the top-level await unsettled and Node exited 13 with a warning.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
const { execute } = await import('@oclif/core');
await execute({ dir: import.meta.url });
