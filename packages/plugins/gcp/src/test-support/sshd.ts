// The lab sshd moved to @netbench/core/testing; tests/gcp-contract.test.ts still imports closedPort from here.
export { closedPort, keygen, startSshd } from '@netbench/core/testing';
export type { LabSshd } from '@netbench/core/testing';
