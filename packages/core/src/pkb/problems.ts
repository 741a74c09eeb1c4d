import type { RawIssue } from '../issues/spec-error.js';

export type Path = readonly (string | number)[];

/**
 * What the translation found, on paths of the PKB document: `issues` stop the
 * load (unsupported or malformed), `warnings` do not (ignored flags, features
 * netbench approximates). Both name the PKB key and say what to do.
 */
export class Problems {
  readonly issues: RawIssue[] = [];
  readonly warnings: RawIssue[] = [];

  error(path: Path, message: string, anchor: 'key' | 'value' = 'value'): void {
    if (!this.issues.some((i) => i.message === message && samePath(i.path, path))) this.issues.push({ path, message, anchor });
  }

  warn(path: Path, message: string, anchor: 'key' | 'value' = 'key'): void {
    if (!this.warnings.some((w) => w.message === message && samePath(w.path, path))) this.warnings.push({ path, message, anchor });
  }
}

/**
 * Where each field of the native document came from in the PKB file, so a
 * problem the validator finds in `hosts.vm_1.machineType` is shown at the
 * `machine_type:` line the user wrote.
 */
export class Origins {
  private readonly map = new Map<string, Path>();

  set(native: Path, pkb: Path): void {
    this.map.set(key(native), pkb);
  }

  /** The PKB path of a native path: its own origin, else its nearest ancestor's. */
  find(native: Path): { readonly pkb: Path; readonly exact: boolean } | undefined {
    for (let n = native.length; n >= 0; n--) {
      const found = this.map.get(key(native.slice(0, n)));
      if (found) return { pkb: found, exact: n === native.length };
    }
    return undefined;
  }
}

function key(path: Path): string {
  return path.map(String).join('\u0000');
}

function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((part, i) => String(part) === String(b[i]));
}
