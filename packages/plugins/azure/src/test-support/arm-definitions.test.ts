import { describe, expect, it } from 'vitest';
import { armDefinitionVersions, validateArmBody } from './arm-definitions.js';

// The stand-in's body checks, read from the installed @azure/arm-* SDKs.
const vm = (osProfile: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  location: 'eastus',
  properties: {
    hardwareProfile: { vmSize: 'Standard_D2s_v5' },
    storageProfile: { osDisk: { createOption: 'FromImage', managedDisk: { storageAccountType: 'StandardSSD_LRS' } } },
    osProfile: { computerName: 'vm', ...osProfile },
    ...extra,
  },
});
const ssh = (keyData: string) => ({ linuxConfiguration: { disablePasswordAuthentication: true, ssh: { publicKeys: [{ path: '/home/netbench/.ssh/authorized_keys', keyData }] } } });
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl c';
const ECDSA = 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEm6 c';
const fields = (v: { field: string }[]) => v.map((x) => x.field);

describe('ARM bodies against the @azure/arm-* models', () => {
  it('reads the three SDK packages', () => {
    expect(Object.keys(armDefinitionVersions()).sort()).toEqual(['@azure/arm-compute', '@azure/arm-network', '@azure/arm-resources']);
  });

  it('accepts a VM as netbench sends it', () => {
    expect(validateArmBody('VirtualMachine', vm({ adminUsername: 'netbench', ...ssh(ED25519) }))).toEqual([]);
  });

  it('refuses a reserved admin user name and an ECDSA key, naming each field', () => {
    const v = validateArmBody('VirtualMachine', vm({ adminUsername: 'root', ...ssh(ECDSA) }));
    expect(fields(v)).toEqual(['VirtualMachine.osProfile.adminUsername', 'VirtualMachine.osProfile.linuxConfiguration.ssh.publicKeys[0].keyData']);
    expect(v[0]!.problem).toMatch(/"root" is a disallowed value/);
    expect(v[1]!.problem).toMatch(/ecdsa-sha2-nistp256 key/);
  });

  it('refuses unknown properties, unknown enum values and missing required ones', () => {
    expect(fields(validateArmBody('VirtualMachine', vm({ adminUsername: 'netbench', ...ssh(ED25519) }, { bootDiagnostic: { enabled: true } })))).toEqual([
      'properties.bootDiagnostic.enabled',
    ]);
    const bad = vm({ adminUsername: 'netbench', ...ssh(ED25519) });
    (bad.properties.storageProfile.osDisk.managedDisk as Record<string, string>)['storageAccountType'] = 'SSD';
    expect(fields(validateArmBody('VirtualMachine', bad))).toEqual(['VirtualMachine.storageProfile.osDisk.managedDisk.storageAccountType']);
    expect(fields(validateArmBody('VirtualMachine', { properties: { hardwareProfile: { vmSize: 'Standard_D2s_v5' } } }))).toEqual(['VirtualMachine.location']);
  });

  it('refuses a security rule priority outside the documented 100-4096 and a description over 140 characters', () => {
    const rule = (priority: number, description = 'd') => ({
      properties: { priority, description, protocol: '*', access: 'Allow', direction: 'Inbound', sourcePortRange: '*', destinationPortRange: '*' },
    });
    expect(validateArmBody('SecurityRule', rule(140))).toEqual([]);
    expect(fields(validateArmBody('SecurityRule', rule(4097)))).toEqual(['SecurityRule.priority']);
    expect(fields(validateArmBody('SecurityRule', rule(140, 'x'.repeat(141))))).toEqual(['SecurityRule.description']);
  });
});
