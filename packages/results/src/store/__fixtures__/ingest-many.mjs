// Child process for the concurrency test: ingest COUNT copies of a run into DB, each under its own id.
import { readFileSync } from 'node:fs';
import { openStore } from '@netbench/results';

const [db, worker, count] = process.argv.slice(2);
const base = JSON.parse(readFileSync(new URL('./quickstart-results.json', import.meta.url), 'utf8'));
for (let i = 0; i < Number(count); i += 1) {
  const runId = `20300101-000000-w${worker}n${String(i).padStart(3, '0')}`;
  const samples = base.samples.map((s, n) => ({ ...s, runId, sampleId: `${runId}-${n + 1}`, labels: { ...s.labels, run_id: runId } }));
  // A new connection each time, as separate netbench runs would.
  const store = await openStore(db);
  try {
    store.ingest({ run: { ...base.run, runId }, samples });
  } finally {
    store.close();
  }
}
