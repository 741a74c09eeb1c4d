import { describe, expect, it } from 'vitest';
import { keptRange } from '../../api/run-spec.js';
import type { StageJournal } from './run-journal.js';
import { resumeRange } from './run-stages.js';
import { formatStageRange, includesStage, parseStageRange } from './stages.js';

const journal = (done: StageJournal['done']): StageJournal => ({
  runId: 'r',
  sets: [],
  done,
  provisionStarted: done.length > 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  phases: [],
});

describe('stages', () => {
  it('reads one stage or a range, in order', () => {
    expect(parseStageRange('execute')).toEqual({ from: 'execute', to: 'execute' });
    expect(parseStageRange('provision-prepare')).toEqual({ from: 'provision', to: 'prepare' });
    expect(formatStageRange(parseStageRange('prepare-teardown'))).toBe('prepare-teardown');
    expect(includesStage(parseStageRange('provision-execute'), 'prepare')).toBe(true);
    expect(includesStage(parseStageRange('provision-execute'), 'teardown')).toBe(false);
  });

  it('refuses unknown stages, backwards ranges and PKB names with the accepted forms', () => {
    expect(() => parseStageRange('run')).toThrow(/expected one of provision\|prepare\|execute\|teardown/);
    expect(() => parseStageRange('execute-provision')).toThrow(/execute comes after provision/);
    expect(() => parseStageRange('provision-execute-teardown')).toThrow(/expected one of/);
    expect(() => parseStageRange('')).toThrow(/expected one of/);
  });

  it('--keep stops a range at execute; a teardown-only range stays', () => {
    expect(keptRange(undefined, true)).toEqual({ from: 'provision', to: 'execute' });
    expect(keptRange(parseStageRange('execute-teardown'), true)).toEqual({ from: 'execute', to: 'execute' });
    expect(() => keptRange(parseStageRange('teardown'), true)).toThrow('--keep keeps the hosts after execute, --stage teardown deletes them: give one or the other');
    expect(keptRange(parseStageRange('provision'), false)).toEqual({ from: 'provision', to: 'provision' });
  });

  it('--resume goes on from the first stage not done: execute again while trials are left, then teardown', () => {
    expect(resumeRange(journal([]), false)).toEqual({ from: 'provision', to: 'teardown' });
    expect(resumeRange(journal(['provision']), false)).toEqual({ from: 'execute', to: 'teardown' });
    expect(resumeRange(journal(['provision', 'prepare']), true)).toEqual({ from: 'execute', to: 'execute' });
    expect(resumeRange(journal(['provision', 'execute']), false)).toEqual({ from: 'teardown', to: 'teardown' });
    expect(() => resumeRange(journal(['provision', 'execute']), true)).toThrow(/nothing to do with --keep/);
  });
});

describe('the --sets a run keeps for --resume', () => {
  it('never keep a secret given literally, whether set on the field or on what holds it', async () => {
    const { redactSets } = await import('../../api/run-spec.js');
    const { REDACTED } = await import('@netbench/plugin-api');
    const literals = [['publish', 1, 'url']];
    expect(
      redactSets(['options.retries=0', 'publish.1.url=postgres://u:pw@db/x', 'publish=[{type: postgres, url: "postgres://u:pw@db/x"}]', 'publish.0.type=json'], literals),
    ).toEqual(['options.retries=0', `publish.1.url=${REDACTED}`, `publish=${REDACTED}`, 'publish.0.type=json']);
  });
});
