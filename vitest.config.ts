import { defineConfig } from 'vitest/config';

// End-to-end files that need the machine alone, run one at a time before the
// parallel group (scripts/run-tests.mjs; CONTRIBUTING.md "End-to-end groups").
// A new e2e file runs in the parallel group unless it is listed here: list it
// when it changes machine-wide state (dockerd, the root namespace's iptables,
// mounts, disk space), times signals against a running trial, or asserts
// measured rates that a second file's load on 2 vCPUs would move.
export const SERIAL_E2E = [
  'tests/disk-full.test.ts', // mounts a small tmpfs over the runs folder and fills it
  'tests/local-lab-with-docker.test.ts', // sets the root namespace's FORWARD policy to DROP
  'tests/docker.test.ts', // dockerd; counts iperf3 processes machine-wide (inside containers)
  'tests/docker-stages.test.ts', // dockerd
  'tests/docker-congestion-control.test.ts', // dockerd
  'tests/pkb-run.test.ts', // dockerd
  'tests/interrupt.test.ts', // signals mid-trial, cleanup --all
  'tests/kubernetes-interrupt.test.ts', // signals mid-trial
  'tests/kernel-lab.test.ts', // boots a kernel in QEMU (both vCPUs)
  'tests/latency-under-load.test.ts', // goodput and latency against flent's, within tolerances
  'tests/shaped-link.test.ts', // iperf3 rate within 10 % of the shaped rate
  'tests/flows.test.ts', // packets per second against the same flows by hand: failed beside another file (ratio 0.64 < 0.65)
  'tests/tunnels.test.ts', // `cleanup --all` sweeps the machine's lab leftovers: beside it, another file's live run lost a trial's namespaces
];
// The files that run oha (the http plugin's constant-rate generator): last, one at a time, so that CI
// can build oha while everything else runs (scripts/test.sh, scripts/run-tests.mjs).
export const OHA_TESTS = ['packages/plugins/http/src/oha.netns.test.ts', 'tests/http.test.ts'];
// In-process e2e files (no CLI process, no lab): they run with the unit tests.
const IN_PROCESS_E2E = ['tests/load-spec.test.ts', 'tests/fuzz.test.ts', 'tests/examples-plan.test.ts'];

export default defineConfig({
  test: {
    // The ceiling for every project; e2e-serial runs one file at a time (fileParallelism: false).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/**/src/**/*.test.ts', 'examples/plugins/*/src/**/*.test.ts', ...IN_PROCESS_E2E],
          exclude: ['**/node_modules/**', '**/dist/**', ...OHA_TESTS],
          testTimeout: 60_000,
          // Two files at once (vitest's default on 2 vCPUs is one): unit tests name their own namespaces,
          // ports and processes (run-scoped), so none asserts machine-wide state another file could change.
          maxWorkers: 2,
        },
      },
      {
        test: {
          // Type tests (*.test-d.ts) pin the plugin contract; vitest runs TypeScript's own checker over them.
          name: 'types',
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ['packages/*/src/**/*.test-d.ts'],
            tsconfig: 'tsconfig.test-d.json',
          },
        },
      },
      {
        test: {
          name: 'e2e-serial',
          include: SERIAL_E2E,
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // One file at a time, and scripts/run-tests.mjs runs this group before the parallel one.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e-oha',
          include: OHA_TESTS,
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // Constant-rate HTTP load (the knee of a sweep): one file at a time, nothing else beside it.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...SERIAL_E2E, ...IN_PROCESS_E2E, ...OHA_TESTS],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // Two files at once: each names its own namespaces, links and processes after its run id
          // (tests/helpers/leftovers.ts), and checks of "nothing created" run in a sandbox.
          maxWorkers: 2,
        },
      },
    ],
  },
});
