/**
 * AWS's side of pinning console host keys: the block itself is parsed by
 * core's `parseConsoleHostKeys` (the same cloud-init block on every cloud);
 * what EC2 adds is when to stop polling `GetConsoleOutput` for it.
 */
/** cloud-init's last stage has run: if no keys were printed by now, none will be. */
export const CLOUD_INIT_FINISHED_RE = /Cloud-init v\. \S+ finished at/;
