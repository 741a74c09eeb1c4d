import { dirname } from 'node:path';
import type { Spec } from '../spec/types.js';

/** The folder files a spec names resolve against (as `options.runsDir` does): the spec file's, or the working folder for a spec given as text. */
export function specDirOf(spec: Spec): string {
  const file = spec.source?.file;
  return file === undefined || file === '<spec>' ? process.cwd() : dirname(file);
}
