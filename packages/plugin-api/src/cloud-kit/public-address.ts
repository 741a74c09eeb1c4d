import { UnsupportedError } from '../errors/index.js';

const IPV4_RE = /^(\d{1,3}\.){3}\d{1,3}$/;
/** Services that echo the caller's address as plain text. */
const DEFAULT_ECHO_URLS = ['https://checkip.amazonaws.com/', 'https://api.ipify.org/'];

/**
 * The public IPv4 address this machine reaches the internet from (what a
 * cloud sees as the SSH client), as a /32. Asked of an echo service; set
 * `sshFrom` on the hosts to skip the lookup (and behind NAT pools).
 */
export async function detectPublicAddress(signal: AbortSignal): Promise<string> {
  // The same setting the AWS plugin reads; also how tests point it at a local echo server.
  const own = process.env['NETBENCH_MY_IP_URL'];
  const urls = own ? [own] : DEFAULT_ECHO_URLS;
  for (const url of urls) {
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]) });
      const text = (await response.text()).trim();
      if (response.ok && IPV4_RE.test(text)) return `${text}/32`;
    } catch {
      if (signal.aborted) throw signal.reason;
    }
  }
  throw new UnsupportedError(`could not find this machine's public address (asked ${urls.join(', ')}); set sshFrom: [<your address>/32] on the hosts or NETBENCH_SSH_FROM`);
}
