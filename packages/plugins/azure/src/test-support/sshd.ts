// The lab sshd moved to @netbench/plugin-api/testing; tests/azure-contract.test.ts still imports closedPort from here.

export type { LabSshd } from '@netbench/plugin-api/testing';
export { closedPort, keygen, startSshd } from '@netbench/plugin-api/testing';
