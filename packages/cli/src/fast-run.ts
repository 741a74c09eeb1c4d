// `netbench run` without oclif's start-up: `bin/run.js` tries this
// first for `run`. Booting oclif (its config, plugins, manifest and the
// semver check it runs on import) costs about 0.1 s of CPU on every run; a
// command whose flags are a fixed, small set can be parsed by `node:util`.
// Anything this parser does not take exactly as oclif would — help, an
// unknown or malformed flag, an argument oclif would read differently —
// is declined before anything happens, and oclif runs the command as always.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { printable } from '@netbench/core/run';
import { NetbenchError } from '@netbench/plugin-api';
import { cliPackage } from './lib/cli-package.js';
import { type RunFlags, runCommand } from './lib/run-command.js';

/** The flags of `commands/run.ts` (and the base command's), as `node:util` parses them; `fast-run.test.ts` keeps the two equal. */
export const FAST_RUN_OPTIONS = {
  set: { type: 'string', multiple: true },
  'runs-dir': { type: 'string' },
  db: { type: 'string' },
  'max-cost': { type: 'string' },
  progress: { type: 'string' },
  stage: { type: 'string' },
  keep: { type: 'boolean' },
  resume: { type: 'string' },
  shard: { type: 'string' },
  study: { type: 'string' },
  json: { type: 'boolean' },
  'log-level': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** Values an option flag accepts (oclif's `Flags.option`), and its default. */
export const FAST_RUN_CHOICES = {
  progress: { options: ['auto', 'tty', 'plain', 'none'], default: 'auto' },
  'log-level': { options: ['error', 'warn', 'info', 'debug'], default: 'info' },
} as const;

export interface FastRunArgs {
  readonly spec: string | undefined;
  readonly flags: RunFlags;
  readonly json: boolean;
}

/**
 * `run`'s arguments (after the word `run`) as oclif would read them, or
 * undefined when this parser cannot be sure of that (oclif then decides).
 */
export function parseRunArgs(argv: readonly string[]): FastRunArgs | undefined {
  // `--` and help are oclif's to interpret.
  if (argv.some((a) => a === '--' || a === '--help' || a === '-h')) return undefined;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: FAST_RUN_OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch {
    return undefined;
  }
  const { values, positionals, tokens } = parsed;
  if (positionals.length > 1) return undefined;
  // oclif lets a repeatable flag take the next words too (`--set a=1 spec.yaml`): only a spec before any --set is unambiguous.
  const firstSet = tokens.findIndex((t) => t.kind === 'option' && t.name === 'set');
  if (firstSet >= 0 && tokens.slice(firstSet).some((t) => t.kind === 'positional')) return undefined;
  // A value that looks like a flag (`--db --keep`) is an error in oclif.
  if (tokens.some((t) => t.kind === 'option' && t.inlineValue === false && t.value?.startsWith('-'))) return undefined;
  for (const [name, { options }] of Object.entries(FAST_RUN_CHOICES)) {
    const value = values[name as keyof typeof values];
    if (value !== undefined && !(options as readonly string[]).includes(value as string)) return undefined;
  }
  // oclif keeps the last value of a flag given twice; so does parseArgs for single flags.
  const { json, 'log-level': _logLevel, progress, ...rest } = values;
  const flags: RunFlags = { ...rest, progress: (progress ?? FAST_RUN_CHOICES.progress.default) as RunFlags['progress'] };
  return { spec: positionals[0], flags, json: json === true };
}

/**
 * Run `netbench run ARGV` here, or return false (before doing anything) for
 * oclif to run it. Output, `--json` and exit codes are those of the oclif
 * command (`commands/run.ts` and `lib/base-command.ts`).
 */
export async function fastRun(argv: readonly string[]): Promise<boolean> {
  const args = parseRunArgs(argv);
  if (!args) return false;
  const json = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  try {
    const result = await runCommand(args.spec, args.flags, { log: (line) => process.stdout.write(`${line}\n`), json: args.json, version: cliPackage().version });
    if (args.json) json(result);
  } catch (error) {
    if (!(error instanceof NetbenchError)) throw error;
    if (args.json) json({ error: { name: error.name, message: error.message, ...('issues' in error ? { issues: error.issues } : {}) } });
    else process.stderr.write(`${printable(error.message)}\n`);
    process.exitCode = error.exitCode;
  }
  return true;
}
