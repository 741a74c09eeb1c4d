import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PluginResolver } from '@netbench/core';
import type { ToolPlugin } from '@netbench/plugin-api';
import { detectTools, sniffHead } from './detect-tool.js';
import { ImportError } from './import-error.js';

/** One file to import, read, with the tool that will parse it. */
export interface ImportInput {
  /** As the user gave it. */
  readonly file: string;
  readonly path: string;
  readonly text: string;
  /** Modification time: when the measurement ended, as far as the file knows. */
  readonly mtimeMs: number;
  readonly tool: ToolPlugin<unknown>;
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Read every file and find its tool (`tool` by name, or `auto`: each
 * installed tool's `sniff`). Every problem is collected and thrown at once
 * as one ImportError, before anything is written.
 */
export async function readInputs(files: readonly string[], tool: string, registry: PluginResolver): Promise<ImportInput[]> {
  if (files.length === 0) throw new ImportError('no files to import');
  const tools = tool === 'auto' ? await allTools(registry) : [await namedTool(tool, registry)];
  const problems: string[] = [];
  const inputs: ImportInput[] = [];
  for (const file of files) {
    const path = resolve(file);
    let text: string;
    let mtimeMs: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) {
        problems.push(`${file}: not a file`);
        continue;
      }
      mtimeMs = info.mtimeMs;
      text = await readFile(path, 'utf8');
    } catch (error) {
      problems.push(`${file}: cannot read (${errorCode(error)})`);
      continue;
    }
    if (text.trim() === '') {
      problems.push(`${file}: empty file`);
      continue;
    }
    if (tool !== 'auto') {
      inputs.push({ file, path, text, mtimeMs, tool: tools[0]! });
      continue;
    }
    const matches = detectTools(sniffHead(text), tools);
    if (matches.length === 1) {
      inputs.push({ file, path, text, mtimeMs, tool: tools.find((t) => t.name === matches[0])! });
    } else if (matches.length === 0) {
      const what = text.includes('\u0000') ? 'not a text file' : 'unrecognised format';
      problems.push(`${file}: ${what}: no installed tool (${tools.map((t) => t.name).join(', ')}) recognises it; pass --tool NAME to parse it as that tool's output`);
    } else {
      problems.push(`${file}: ambiguous format: looks like output of ${matches.join(' and ')}; pass --tool NAME`);
    }
  }
  if (problems.length > 0) throw new ImportError(`nothing imported:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return inputs;
}

async function namedTool(name: string, registry: PluginResolver): Promise<ToolPlugin<unknown>> {
  const tool = await registry.get('tool', name);
  if (!tool) {
    const installed = registry
      .list('tool')
      .map((d) => d.name)
      .sort();
    throw new ImportError(`no tool plugin named ${name} is installed (installed: ${installed.join(', ') || 'none'}; or --tool auto)`);
  }
  return tool as ToolPlugin<unknown>;
}

/** Every installed tool plugin that can sniff. One that fails to load is left out, not fatal. */
async function allTools(registry: PluginResolver): Promise<ToolPlugin<unknown>[]> {
  const tools: ToolPlugin<unknown>[] = [];
  for (const descriptor of registry.list('tool')) {
    try {
      const tool = await registry.get('tool', descriptor.name);
      if (tool?.sniff) tools.push(tool as ToolPlugin<unknown>);
    } catch {
      // a broken third-party plugin cannot recognise anything
    }
  }
  if (tools.length === 0) throw new ImportError('--tool auto: no installed tool plugin can recognise formats; pass --tool NAME');
  return tools;
}
