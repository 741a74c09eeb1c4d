// `npm run bench [name ...]`: runs every bench/*.bench.mjs (or the named ones)
// and prints figures; asserts nothing. Needs root for the local lab.
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith('.bench.mjs'))
  .sort();
for (const file of files) {
  const name = file.replace(/\.bench\.mjs$/, '');
  if (only.length && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  try {
    const { default: bench } = await import(`./${file}`);
    await bench();
  } catch (error) {
    console.log(`  failed: ${error instanceof Error ? error.stack : error}`);
    process.exitCode = 1;
  }
}
