// What the long-study tests check of a run folder: what it left on the
// machine, and how many samples each trial has in each copy of the results.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingResources, readLedger, type Sample } from '@netbench/plugin-api';
import { linksOf, namespacesOf } from './leftovers.js';

/**
 * Processes the lab recorded for a run (its pid files: pid and start time)
 * that still run: the same start time (not a reused pid) and not a zombie (an
 * orphan of a killed invocation exits at teardown, but whoever adopted it may
 * reap it a little later; a zombie holds nothing).
 */
export function livePids(runDir: string): number[] {
  const lab = join(runDir, 'local');
  if (!existsSync(lab)) return [];
  return readdirSync(lab).flatMap((host) => {
    const file = join(lab, host, 'spawned.pids');
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const [pid, startTime] = line.split(' ');
        let stat: string;
        try {
          stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        } catch {
          return [];
        }
        // Fields after the command name (which may hold spaces): state is the 3rd field, start time the 22nd.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const running = fields[0] !== 'Z' && fields[0] !== 'X' && (!startTime || fields[19] === startTime);
        return running ? [Number(pid)] : [];
      });
  });
}

/** FORWARD rules the lab added for a run (commented with its id; made where bridge netfilter is on). */
export function forwardRulesOf(runId: string): string[] {
  const out = execFileSync('iptables', ['-w', '-S', 'FORWARD'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(`netbench:${runId}`));
}

/** What a run leaves behind: namespaces, links (bridge, veths), recorded processes, FORWARD rules, ledger resources not deleted. */
export async function leftovers(runDir: string) {
  const runId = runDir.split('/').pop()!;
  return {
    namespaces: namespacesOf(runId),
    links: linksOf(runId.slice(-6)),
    processes: livePids(runDir),
    rules: forwardRulesOf(runId),
    ledger: pendingResources(await readLedger(join(runDir, 'ledger.jsonl'))).map((e) => `${e.resource.type} ${e.resource.id}`),
  };
}

export const nothingLeft = { namespaces: [], links: [], processes: [], rules: [], ledger: [] };

export function perTrial(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) if (s.trialId) counts[s.trialId] = (counts[s.trialId] ?? 0) + 1;
  return counts;
}

/** `samples.jsonl` of a run folder. */
export function sampleLines(runDir: string): Sample[] {
  return readFileSync(join(runDir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Sample);
}

/** Trial ids listed in `trials.jsonl` (finished). */
export function finishedTrials(runDir: string): string[] {
  const file = join(runDir, 'trials.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);
}

export const json = <T>(stdout: string): T => JSON.parse(stdout) as T;
