// Writes oclif.manifest.json (command ids, flags, summaries) so the CLI does not
// import every command module at start-up. Run after `tsc` (npm run build).
import { writeFile } from 'node:fs/promises';
import { Plugin } from '@oclif/core';

const root = new URL('..', import.meta.url).pathname;
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true });
await plugin.load();
await writeFile(new URL('../oclif.manifest.json', import.meta.url), `${JSON.stringify(plugin.manifest, null, 2)}\n`);
console.log(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands`);
