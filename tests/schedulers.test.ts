// The scheduler recipes of docs/long-studies.md, checked without the
// schedulers: the GitHub Actions workflow against the GitHub workflow schema
// (SchemaStore's, as @action-validator/core embeds it), the Kubernetes
// manifest against Kubernetes' OpenAPI definitions (kubernetes-models, the
// validators packages/plugins/kubernetes uses), and the Indexed Job played
// here: each completion index runs the container's own arguments on the lab,
// as the kubelet would expand them, all at once, publishing into a real
// PostgreSQL (Debian's, started by the test) as the shared store.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { type PgServer, startPostgres } from '../packages/plugins/postgres/src/test-support/pg-server.js';
import { runCli, tempHome } from './helpers/cli.js';
import { namespacesOf } from './helpers/leftovers.js';
import { otherUser } from './helpers/other-user.js';

const spec = join(import.meta.dirname, 'scenarios/long-study/spec.yaml');
const workflowFile = join(import.meta.dirname, '../examples/schedulers/github-actions-shards.yml');

let home: string;
let server: PgServer;
beforeAll(async () => {
  home = tempHome('netbench-e2e-sched-');
  server = await startPostgres();
}, 120_000);
afterAll(() => {
  server?.stop();
  rmSync(home, { recursive: true, force: true });
});

type Workflow = {
  jobs: Record<string, { strategy?: { 'fail-fast'?: boolean; matrix?: { shard?: number[] } }; env?: Record<string, string>; steps: { run?: string }[]; needs?: string }>;
};

describe('GitHub Actions matrix recipe', () => {
  it('is a valid workflow whose matrix gives every shard index once, each job running --shard i/N', () => {
    const text = readFileSync(workflowFile, 'utf8');
    const state = validateWorkflow(text);
    expect(state.errors).toEqual([]);
    // A broken workflow is caught by the same validator.
    expect(JSON.stringify(validateWorkflow(text.replace('strategy:', 'strateggy:')).errors)).toContain("Additional property 'strateggy' is not allowed");

    const workflow = parse(text) as Workflow;
    const shard = workflow.jobs['shard']!;
    const run = shard.steps.map((s) => s.run ?? '').find((r) => r.includes('--shard'))!;
    const count = Number(/--shard \$\{\{ matrix\.shard \}\}\/(\d+)/.exec(run)?.[1]);
    expect(shard.strategy?.matrix?.shard).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(shard.strategy?.['fail-fast']).toBe(false);
    expect(run).toContain('--study "$STUDY"');
    expect(run).not.toMatch(/\$\{\{ *inputs\./); // inputs reach the shell through env only
    expect(shard.env?.['NETBENCH_POSTGRES_URL']).toBe('${{ secrets.NETBENCH_POSTGRES_URL }}');
    expect(workflow.jobs['study']?.needs).toBe('shard');
    // sudo resets PATH: the Node setup-node installed must still be found.
    expect(run).toMatch(/^sudo --preserve-env=NETBENCH_POSTGRES_URL env "PATH=\$PATH" scripts\/netbench run /);
    // The study id reaches SQL as a psql variable, never pasted in (tests/long-studies.test.ts plays this step against PostgreSQL).
    const summary = workflow.jobs['study']!.steps.map((s) => s.run ?? '').find((r) => r.includes('psql'))!;
    expect(summary).toContain(":'study'");
    expect(summary).not.toMatch(/'\$STUDY'|\$\{\{/);
  });
});

/** `${{ github.run_id }}`, `${{ matrix.shard }}`, …: a workflow expression of plain context lookups, as the runner evaluates it. */
function expand(text: string, contexts: Record<string, Record<string, string | number>>): string {
  return text.replace(/\$\{\{\s*(\w+)\.(\w+)\s*\}\}/g, (whole, context: string, key: string) => {
    const value = contexts[context]?.[key];
    if (value === undefined) throw new Error(`no ${context}.${key} for ${whole}`);
    return String(value);
  });
}

describe('GitHub Actions matrix recipe, played as the runner user would run it', () => {
  // A hosted runner's user is not root and has passwordless sudo: the same here, with a user of the test's own.
  const root = process.getuid?.() === 0;
  const hasSudo = spawnSync('sh', ['-c', 'command -v sudo && command -v runuser'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!root || !hasSudo)("a shard's steps leave a run folder the upload step can read, under one study id in every attempt", async () => {
    const workflow = parse(readFileSync(workflowFile, 'utf8')) as Workflow;
    const shard = workflow.jobs['shard']!;
    const user = otherUser('nb-gha-runner');
    const sudoers = '/etc/sudoers.d/nb-gha-runner-test';
    const workspace = mkdtempSync(join(tmpdir(), 'nb-gha-'));
    try {
      writeFileSync(sudoers, `${user.name} ALL=(root) NOPASSWD:SETENV: ALL\n`, { mode: 0o440 });
      execFileSync('visudo', ['-cf', sudoers], { stdio: 'ignore' });
      // The checkout: the repo's files, in a folder the runner user owns.
      chownSync(workspace, user.uid, user.gid);
      for (const entry of ['scripts', 'packages', 'node_modules', 'package.json', 'examples', 'tests']) symlinkSync(join(import.meta.dirname, '..', entry), join(workspace, entry));
      const contexts = (attempt: number) => ({
        github: { run_id: 4242, run_attempt: attempt },
        matrix: { shard: 1 },
        secrets: { NETBENCH_POSTGRES_URL: server.url },
        inputs: { spec: 'tests/scenarios/long-study/spec.yaml' },
      });
      const env = (attempt: number) => Object.fromEntries(Object.entries(shard.env ?? {}).map(([k, v]) => [k, expand(v, contexts(attempt))]));
      // "Re-run failed jobs" is attempt 2: the same study, not a second one.
      expect(env(2)['STUDY']).toBe(env(1)['STUDY']);
      const step = (name: RegExp) => expand(shard.steps.find((s) => name.test((s as { name?: string }).name ?? ''))!.run!, contexts(1));
      const asRunner = (script: string) =>
        spawnSync('runuser', ['-u', user.name, '--', 'env', `PATH=${process.env['PATH']}`, ...Object.entries(env(1)).map(([k, v]) => `${k}=${v}`), 'bash', '-e', '-c', script], {
          cwd: workspace,
          encoding: 'utf8',
        });
      const readAll = 'test -n "$(find runs -type f)" && find runs -type f -exec cat {} + > /dev/null';

      const ran = asRunner(step(/^run shard/));
      expect(ran.status, ran.stderr).toBe(0);
      // As netbench left it (root's, 0700), the runner user cannot read it: the upload would fail.
      expect(asRunner(readAll).status).not.toBe(0);
      const handed = asRunner(step(/^hand the run folder/));
      expect(handed.status, handed.stderr).toBe(0);
      const read = asRunner(readAll);
      expect(read.status, read.stderr).toBe(0);

      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const rows = await client.query<{ shard: string }>("SELECT record->'labels'->>'shard' AS shard FROM netbench.runs WHERE record->'labels'->>'study' = $1", [
          env(1)['STUDY'],
        ]);
        expect(rows.rows.map((r) => r.shard)).toEqual(['1/4']);
      } finally {
        await client.end();
      }
    } finally {
      rmSync(sudoers, { force: true });
      spawnSync('rm', ['-rf', '--', workspace]);
    }
  });
});

describe('Kubernetes Indexed Job recipe', () => {
  it('netbench plan --shards 4 --emit k8s-job writes a ConfigMap and an Indexed Job the Kubernetes schema accepts', async () => {
    const result = await runCli(['plan', spec, '--shards', '4', '--emit', 'k8s-job', '--study', 'k8s-study', '--image', 'registry.example/netbench:1'], {
      env: { NETBENCH_HOME: home },
    });
    expect(result.code, result.stderr).toBe(0);
    const [configMap, job] = parseAllDocuments(result.stdout).map((d) => d.toJS() as Record<string, any>);
    expect(() => new ConfigMap(configMap as never).validate()).not.toThrow();
    expect(() => new Job(job as never).validate()).not.toThrow();
    // The validators are real: a wrong type is refused.
    expect(() => new Job({ ...job, spec: { ...job!.spec, completions: 'four' } } as never).validate()).toThrow();

    expect(job!.spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4 });
    const pod = job!.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    const container = pod.containers[0];
    expect(container.command).toBeUndefined(); // no shell: the image's entrypoint is netbench
    expect(container.args).toEqual(['run', '/etc/netbench/spec.yaml', '--shard', '$(JOB_COMPLETION_INDEX)/4', '--study', 'k8s-study', '--progress', 'plain']);
    expect(container.env).toContainEqual({
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
    });
    expect(container.env).toContainEqual({ name: 'NETBENCH_POSTGRES_URL', valueFrom: { secretKeyRef: { name: 'netbench-postgres', key: 'url' } } });
    expect(pod.volumes).toContainEqual({ name: 'spec', configMap: { name: configMap!.metadata.name } });
    expect(configMap!.data['spec.yaml']).toContain('study: k8s-study');
    expect(result.stdout).not.toMatch(/postgres(ql)?:\/\//); // the URL stays in the Secret
    // This spec publishes nowhere shared: said, since each pod's own store goes with the pod.
    expect(result.stderr).toContain(
      "warning: the Job's pods keep their results in an emptyDir that goes with each pod, and it publishes only to json: add `publish: [{type: postgres}]`",
    );
    const shared = await runCli(['plan', spec, '--shards', '4', '--emit', 'k8s-job', '--set', 'publish=[{type: postgres}]', '--json'], { env: { NETBENCH_HOME: home } });
    expect(shared.code, shared.stderr).toBe(0);
    // What is left is the lab's own warning: its pods need NET_ADMIN and SYS_ADMIN, and get them in the manifest.
    const emittedShared = JSON.parse(shared.stdout) as { warnings: string[]; manifest: string };
    expect(emittedShared.warnings).toEqual([expect.stringMatching(/^the spec has local-lab hosts: .*NET_ADMIN and SYS_ADMIN/)]);
    expect(parseAllDocuments(emittedShared.manifest)[1]!.toJS().spec.template.spec.containers[0].securityContext).toEqual({ capabilities: { add: ['NET_ADMIN', 'SYS_ADMIN'] } });
    expect(shared.stderr).not.toContain('emptyDir');
  });

  it('each completion index, expanded as the kubelet would, runs its shard at once with the others, publishing into one PostgreSQL; together they make the whole plan', async () => {
    const env = { NETBENCH_HOME: home, NETBENCH_POSTGRES_URL: server.url };
    const emitted = await runCli(['plan', spec, '--shards', '4', '--emit', 'k8s-job', '--study', 'k8s-local', '--set', 'publish=[{type: postgres}]'], { env });
    expect(emitted.code, emitted.stderr).toBe(0);
    const [configMap, job] = parseAllDocuments(emitted.stdout).map((d) => d.toJS() as Record<string, any>);
    const specFile = join(home, 'spec.yaml');
    writeFileSync(specFile, configMap!.data['spec.yaml']);
    const container = job!.spec.template.spec.containers[0];
    const args = container.args as string[];
    expect(container.env.map((e: { name: string }) => e.name)).toContain('NETBENCH_POSTGRES_URL');
    const db = join(home, 'k8s.db');
    // parallelism 4: the pods run together.
    const pods = Array.from({ length: job!.spec.completions as number }, (_, index) => {
      const expanded = args.map((a) => a.replace('$(JOB_COMPLETION_INDEX)', String(index)).replace('/etc/netbench/spec.yaml', specFile));
      return runCli([...expanded, '--runs-dir', join(home, 'runs'), '--db', db, '--json'], { env });
    });
    const trials: string[] = [];
    for (const run of await Promise.all(pods)) {
      expect(run.code, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout) as { runId: string; trials: { id: string }[] };
      trials.push(...out.trials.map((t) => t.id));
      expect(namespacesOf(out.runId)).toEqual([]);
    }
    expect(trials.sort()).toEqual(['t0001', 't0002', 't0003', 't0004', 't0005', 't0006']);
    const study = await runCli(['results', 'study', 'k8s-local', '--db', db, '--json'], { env });
    expect(JSON.parse(study.stdout)).toMatchObject({ trials: 6, shards: { count: 4, missing: [] }, repeated: [] });
    // The shared store: PostgreSQL has the study's four runs and every trial once.
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const rows = await client.query<{ shard: string; trial_id: string }>(
        "SELECT r.record->'labels'->>'shard' AS shard, t.trial_id FROM netbench.trials t JOIN netbench.runs r USING (run_pk) WHERE r.record->'labels'->>'study' = $1 ORDER BY t.trial_id",
        ['k8s-local'],
      );
      expect(rows.rows.map((r) => r.trial_id)).toEqual(['t0001', 't0002', 't0003', 't0004', 't0005', 't0006']);
      expect(new Set(rows.rows.map((r) => r.shard)).size).toBe(4);
    } finally {
      await client.end();
    }
  });
});
