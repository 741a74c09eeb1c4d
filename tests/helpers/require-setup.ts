/**
 * Whether a test group's missing set-up must fail instead of skipping it:
 * under CI (`CI=true`, as `.ci/run` runs) or with NETBENCH_REQUIRE_SETUP=1.
 * On a developer's machine a group without its tools (tunnel programs, flent,
 * oha) skips; in CI the same absence is a set-up failure and says so.
 */
export function setupRequired(): boolean {
  return process.env['CI'] === 'true' || process.env['NETBENCH_REQUIRE_SETUP'] === '1';
}
