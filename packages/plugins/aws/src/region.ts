/** Availability zone names: a region (`us-east-1`, `us-gov-west-1`) plus a letter, or a Local/Wavelength zone suffix. */
export const ZONE_RE = /^([a-z]{2}(?:-gov|-iso[a-z]*)?-[a-z]+-\d+)(?:[a-z]|-[a-z0-9-]+[a-z])$/;

/** The region a zone belongs to (`us-east-1a` → `us-east-1`, `us-west-2-lax-1a` → `us-west-2`). */
export function regionOf(zone: string): string {
  const match = ZONE_RE.exec(zone);
  if (!match) throw new Error(`not an AWS availability zone: ${zone}`);
  return match[1]!;
}

export function isZone(zone: string): boolean {
  return ZONE_RE.test(zone);
}
