/**
 * The parameters `pktgenTrials` gives each trial: what `run` receives as
 * `trial.params`, typed, never parsed again (undefined ones are left out of the plan).
 */
export type PktgenTrialSettings = {
  readonly count: number;
  readonly size: number;
  readonly rate?: number;
  /** CPU of the sending kernel thread; also what `cpu_client` pins for other tools. */
  readonly cpu_client: number;
  readonly port: number;
};

/**
 * The writes that configure one device of a pktgen thread, in order: each is
 * one `write()` to `/proc/net/pktgen/<device>`. Values come from the schema
 * (integers) or were checked (`dst`, `dst_mac`) before they get here.
 */
export function deviceCommands(settings: PktgenTrialSettings, dst: string, dstMac: string): string[] {
  return [
    `count ${settings.count}`,
    // Devices without IFF_TX_SKB_SHARING (veth, most virtual ones) refuse a shared skb: a fresh one per packet.
    'clone_skb 0',
    `pkt_size ${settings.size}`,
    settings.rate === undefined ? 'delay 0' : `ratep ${settings.rate}`,
    `dst ${dst}`,
    `dst_mac ${dstMac}`,
    `udp_dst_min ${settings.port}`,
    `udp_dst_max ${settings.port}`,
  ];
}
