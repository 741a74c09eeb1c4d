const IPV4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The CIDR allowed to SSH to the run's machines: the one given, else this
 * machine's public IPv4 address as seen from the internet (`/32`), asked
 * once per run from `url`.
 */
export async function sshSourceCidr(given: string | undefined, url: string, signal?: AbortSignal): Promise<{ cidr: string; detected: boolean }> {
  if (given) return { cidr: given, detected: false };
  let text: string;
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(10_000)]) : AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = (await response.text()).trim();
  } catch (error) {
    throw new Error(
      `could not detect this machine's public address from ${url} (${error instanceof Error ? error.message : String(error)}); set sshFrom on the host or NETBENCH_SSH_FROM`,
      { cause: error },
    );
  }
  const match = IPV4_RE.exec(text);
  if (!match || match.slice(1).some((octet) => Number(octet) > 255)) {
    throw new Error(`${url} answered ${JSON.stringify(text.slice(0, 60))}, not an IPv4 address; set sshFrom or NETBENCH_SSH_FROM`);
  }
  return { cidr: `${text}/32`, detected: true };
}
