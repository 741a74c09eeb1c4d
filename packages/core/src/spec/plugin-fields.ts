/** The plugin-owned part of a block: every field but the core's keys. */
export function pluginFields(block: Readonly<Record<string, unknown>>, coreKeys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(block)) if (!coreKeys.includes(key)) out[key] = value;
  return out;
}
