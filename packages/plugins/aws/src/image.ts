import { DescribeImagesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import type { ImageChoice } from './host-schema.js';

/** The current Ubuntu LTS; bump with each LTS (images are published under Canonical's account). */
export const UBUNTU_LTS = { version: '24.04', codename: 'noble' } as const;
export const CANONICAL_OWNER = '099720109477';

/** Canonical's name pattern (hvm-ssd for older releases, hvm-ssd-gp3 since noble; both match). */
export function defaultImageFilter(arch: 'x86_64' | 'arm64'): { owner: string; name: string } {
  const suffix = arch === 'arm64' ? 'arm64' : 'amd64';
  return { owner: CANONICAL_OWNER, name: `ubuntu/images/hvm-ssd*/ubuntu-${UBUNTU_LTS.codename}-${UBUNTU_LTS.version}-${suffix}-server-*` };
}

export interface ResolvedImage {
  readonly imageId: string;
  readonly name?: string;
  /** The image's root device (`/dev/sda1`, `/dev/xvda`, …): where `diskGb` goes. Unknown for an id until `rootDeviceName` looks. */
  readonly rootDeviceName?: string;
}

/**
 * The AMI to boot: an id as given, else the newest available image matching
 * `{ owner, name }` (default: current Ubuntu LTS for the architecture).
 * DescribeImages rather than an SSM public parameter: it needs no extra
 * SDK client or IAM permission, and emulators implement it.
 */
export async function resolveImage(ec2: EC2Client, choice: ImageChoice, arch: 'x86_64' | 'arm64', signal?: AbortSignal): Promise<ResolvedImage> {
  if (typeof choice === 'string') return { imageId: choice };
  const filter = choice ?? defaultImageFilter(arch);
  const out = await ec2.send(
    new DescribeImagesCommand({
      Owners: [filter.owner],
      Filters: [
        { Name: 'name', Values: [filter.name] },
        { Name: 'architecture', Values: [arch] },
        { Name: 'state', Values: ['available'] },
      ],
    }),
    { abortSignal: signal },
  );
  const newest = (out.Images ?? [])
    .filter((image) => image.ImageId)
    .sort((a, b) => (b.CreationDate ?? '').localeCompare(a.CreationDate ?? '') || (b.Name ?? '').localeCompare(a.Name ?? ''))[0];
  if (!newest) throw new Error(`no ${arch} image named ${filter.name} from owner ${filter.owner} in this region; set image to an AMI id`);
  return { imageId: newest.ImageId!, ...(newest.Name ? { name: newest.Name } : {}), ...(newest.RootDeviceName ? { rootDeviceName: newest.RootDeviceName } : {}) };
}

/**
 * The root device of an image given by id: a block device mapping for any
 * other name adds a second volume instead of growing the root one (Amazon
 * Linux and many custom AMIs use `/dev/xvda`, Ubuntu `/dev/sda1`).
 */
export async function rootDeviceName(ec2: EC2Client, image: ResolvedImage, signal?: AbortSignal): Promise<string> {
  if (image.rootDeviceName) return image.rootDeviceName;
  const out = await ec2.send(new DescribeImagesCommand({ ImageIds: [image.imageId] }), { abortSignal: signal });
  const found = out.Images?.find((i) => i.ImageId === image.imageId);
  if (!found) throw new Error(`image ${image.imageId} not found in this region`);
  if (!found.RootDeviceName) throw new Error(`image ${image.imageId} has no root device name; diskGb cannot be applied`);
  return found.RootDeviceName;
}
