import type { ToolPlugin } from '@netbench/plugin-api';

/** Sniffers see at most this much of a file: every format names itself within its first lines. */
export const SNIFF_BYTES = 64 * 1024;

/** The start of a file's text that sniffers look at. */
export function sniffHead(text: string): string {
  return text.length > SNIFF_BYTES ? text.slice(0, SNIFF_BYTES) : text;
}

/**
 * Names of the tools whose `sniff` recognises `head`. A sniffer that throws
 * counts as "not mine": a third-party plugin's bug must not stop an import.
 */
export function detectTools(head: string, tools: readonly ToolPlugin<unknown>[]): string[] {
  return tools
    .filter((tool) => {
      try {
        return tool.sniff?.(head) === true;
      } catch {
        return false;
      }
    })
    .map((tool) => tool.name);
}
