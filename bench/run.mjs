// `npm run bench`: prints figures, asserts nothing. Needs root (local lab).
import { orchestrationOverhead } from './orchestration.mjs';
import { coldStart } from './cold-start.mjs';
import { fidelity } from './fidelity.mjs';

const only = process.argv.slice(2);
const benches = { 'cold-start': coldStart, orchestration: orchestrationOverhead, fidelity };
for (const [name, bench] of Object.entries(benches)) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  try {
    await bench();
  } catch (error) {
    console.log(`  failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
