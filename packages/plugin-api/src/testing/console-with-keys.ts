/** Console output as an Ubuntu guest prints it: kernel lines, cloud-init, then the host key block, CRLF. */
export function consoleWithKeys(keys: readonly string[]): string {
  return [
    '[    0.000000] Linux version 6.8.0-1015-gcp (buildd@lcy02-amd64-075) #17-Ubuntu SMP',
    "[   10.212043] cloud-init[612]: Cloud-init v. 24.2-0ubuntu1~24.04.2 running 'modules:final'",
    '<14>Nov 22 11:03:12 cloud-init: #############################################################',
    '<14>Nov 22 11:03:12 cloud-init: -----BEGIN SSH HOST KEY FINGERPRINTS-----',
    '<14>Nov 22 11:03:12 cloud-init: 256 SHA256:3Zt0fKJ8tA7x8mF0 root@nb-host (ED25519)',
    '<14>Nov 22 11:03:12 cloud-init: -----END SSH HOST KEY FINGERPRINTS-----',
    '-----BEGIN SSH HOST KEY KEYS-----',
    ...keys,
    '-----END SSH HOST KEY KEYS-----',
    'Ubuntu 24.04.1 LTS nb-host ttyS0',
    '',
  ].join('\r\n');
}
