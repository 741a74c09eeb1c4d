/** EC2 on-demand vCPU quotas (Service Quotas codes) by instance family. */
const CLASSES: readonly { readonly re: RegExp; readonly code: string; readonly label: string }[] = [
  { re: /^(?:inf)\d/, code: 'L-1945791B', label: 'Inf instances' },
  { re: /^(?:trn)\d/, code: 'L-2C3B7624', label: 'Trn instances' },
  { re: /^(?:dl)\d/, code: 'L-6E869C2A', label: 'DL instances' },
  // gr6 (GPU with more memory per vCPU) counts against the G and VT quota.
  { re: /^(?:g|gr|vt)\d/, code: 'L-DB2E81BA', label: 'G and VT instances' },
  { re: /^u[-\d]/, code: 'L-43DA4232', label: 'High Memory instances' },
  { re: /^hpc\d/, code: 'L-F7808C92', label: 'HPC instances' },
  { re: /^p\d/, code: 'L-417A185B', label: 'P instances' },
  { re: /^x\d/, code: 'L-7295265B', label: 'X instances' },
  { re: /^f\d/, code: 'L-74FC7D96', label: 'F instances' },
];
const STANDARD = { code: 'L-1216C47A', label: 'Standard (A, C, D, H, I, M, R, T, Z) instances' };

/** The vCPU quota an instance type counts against. */
export function quotaClass(machineType: string): { code: string; label: string } {
  const found = CLASSES.find((c) => c.re.test(machineType));
  return found ? { code: found.code, label: found.label } : STANDARD;
}
