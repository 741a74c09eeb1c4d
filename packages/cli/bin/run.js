#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node caches the compiled code of netbench and its dependencies on disk, so
// every command after the first starts faster.
enableCompileCache?.();
const { execute } = await import('@oclif/core');
await execute({ dir: import.meta.url });
