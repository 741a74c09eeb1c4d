// The worker thread behind `SpecChecker`: validates, plans and costs the
// editor's text with a registry of its own, off the UI server's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { createRegistry, type RegistryOptions } from '@netbench/core';
import { checkSpecText } from './check-spec-text.js';

const registry = createRegistry(workerData as RegistryOptions);
parentPort!.on('message', (message: { id: number; text: string; maxCostUsd?: number }) => {
  checkSpecText(registry, message.text, message.maxCostUsd).then(
    (result) => parentPort!.postMessage({ id: message.id, result }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
