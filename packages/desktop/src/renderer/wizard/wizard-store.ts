import { type Dispatch, type SetStateAction, useEffect, useState } from 'react';
import { go } from '../lib/route';

/**
 * The wizard's answers outlive its page: leaving it (to the results, a live
 * run) and coming back finds every answer as it was. Kept for the window's
 * life in memory and in sessionStorage (a reload keeps them too); never in
 * localStorage, so a new window starts fresh.
 */
const kept = new Map<string, unknown>();
const PREFIX = 'netbench.wizard.';

function read<T>(key: string): { found: true; value: T } | { found: false } {
  if (kept.has(key)) return { found: true, value: kept.get(key) as T };
  try {
    const text = window.sessionStorage.getItem(PREFIX + key);
    if (text !== null) return { found: true, value: JSON.parse(text) as T };
  } catch {
    // Storage refused (a sandboxed page) or a value from an older version: start from the default.
  }
  return { found: false };
}

export function keep(key: string, value: unknown): void {
  kept.set(key, value);
  try {
    window.sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Memory still keeps it for this window.
  }
}

/** `useState` whose value is kept across the wizard's unmount and remount, under `key`. */
export function useKept<T>(key: string, initial: T): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() => {
    const r = read<T>(key);
    return r.found ? r.value : initial;
  });
  useEffect(() => {
    keep(key, value);
  }, [key, value]);
  return [value, setValue];
}

/** Open a spec in the wizard's review step (editor, plan, cost, Run): a run's "Run again / edit". */
export function openInWizard(text: string, name: string): void {
  keep('text', text);
  keep('step', 3);
  keep('saveName', `${name.replace(/[^A-Za-z0-9._-]+/g, '-') || 'spec'}.yaml`);
  go('new');
}
