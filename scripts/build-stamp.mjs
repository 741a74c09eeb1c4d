#!/usr/bin/env node
// Whether `npm run build`'s output is current, so `npm test` can skip a build
// that scripts/setup.sh has just done (CI builds once). `write` records the
// end of a build (npm run build's last step); `check` exits 0 when no input of
// the build is newer than that record, 1 otherwise (or with no record).
// Inputs: every file under the packages (and the example plugins) except
// dist/, node_modules/ and tests, plus the root build configuration.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'node_modules/.cache/netbench-build-stamp');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.vite', 'coverage']);
const TEST_FILE_RE = /\.test(-d)?\.tsx?$/;

function newest(dir, depth = 0) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) latest = Math.max(latest, newest(join(dir, entry.name), depth + 1));
    } else if (!TEST_FILE_RE.test(entry.name) && !entry.name.endsWith('.tsbuildinfo')) {
      latest = Math.max(latest, statSync(join(dir, entry.name)).mtimeMs);
    }
  }
  return latest;
}

const inputs = () =>
  Math.max(
    newest(join(root, 'packages')),
    ...['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', 'scripts/bundle-plugins.mjs'].map((f) => statSync(join(root, f)).mtimeMs),
  );

if (process.argv[2] === 'write') {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
} else if (process.argv[2] === 'check') {
  let built = 0;
  try {
    built = statSync(stamp).mtimeMs;
  } catch {
    process.exit(1);
  }
  process.exit(inputs() <= built ? 0 : 1);
} else {
  console.error('usage: node scripts/build-stamp.mjs write|check');
  process.exit(2);
}
