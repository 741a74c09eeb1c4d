import { AuthorizeSecurityGroupIngressCommand, DescribeSecurityGroupsCommand, type EC2Client, type IpPermission, type SecurityGroup } from '@aws-sdk/client-ec2';
import type { PeerHost, ProvisionContext } from '@netbench/plugin-api';
import { NetbenchError, pendingResources } from '@netbench/plugin-api';
import { allOrFirstError } from '@netbench/plugin-api/cloud-kit';
import { awsErrorCode, mapAwsError } from './aws-errors.js';
import type { AwsClients } from './clients.js';
import { RUN_TAG } from './naming.js';
import { missingPermissions, peerPermissions, peerSources, ruleCount, splitPermissions } from './peer-rules.js';
import { type AwsResourceData, RESOURCE, resourceData } from './resources.js';

const DUPLICATE = 'InvalidPermission.Duplicate';

/**
 * Let the run's hosts on other clouds (and static machines) in: every
 * security group of this run — one per region and network, found in the
 * ledger, so no state from `provision` is needed — gets the rules the run's
 * own hosts have between them (all TCP but 22, all UDP, ICMP) from each peer
 * address as a `/32` or `/128`. Rules belong to their group and go with it at
 * teardown: nothing new enters the ledger. Idempotent: rules already there
 * are not sent again, and a duplicate refusal is success.
 */
export async function admitAwsPeers(peers: readonly PeerHost[], ctx: ProvisionContext, clients: AwsClients): Promise<void> {
  const groups = pendingResources(ctx.ledger.entries)
    .filter((e) => e.resource.type === RESOURCE.securityGroup && e.phase !== 'failed')
    .map((e) => resourceData(e.resource));
  if (groups.length === 0) {
    throw new NetbenchError(`aws: cannot admit peer hosts: the ledger of run ${ctx.runId} holds no security group of this run (was provision run, or was it torn down already?)`);
  }
  const { sources, skipped } = peerSources(peers);
  if (skipped.length > 0) ctx.log.warn(`aws: not admitting addresses that are not IP addresses (security groups take CIDRs): ${skipped.join(', ')}`);
  const wanted = peerPermissions(sources);
  if (wanted.length === 0) return;
  const names = peers.map((p) => `${p.id} (${p.cloud}) ${p.addresses.join(', ')}`).join('; ');
  // Regions in parallel; all settle before a failure is thrown, as in provision.
  await allOrFirstError(
    groups.map(async (data) => {
      const groupId = await admitToGroup(clients.ec2(data.region, data.endpoint), data, wanted, ctx);
      ctx.log.info(`aws: admitted ${names} to security group ${groupId} in ${data.region}: TCP except 22, UDP, ICMP`);
    }),
  );
}

async function admitToGroup(ec2: EC2Client, data: AwsResourceData, wanted: readonly IpPermission[], ctx: ProvisionContext): Promise<string> {
  const group = await findGroup(ec2, data, ctx.signal);
  if (!group?.GroupId) throw new NetbenchError(`aws: security group ${data.awsId ?? data.name} of run ${ctx.runId} is not in ${data.region}: cannot admit peer hosts`);
  const groupId = group.GroupId;
  const missing = missingPermissions(wanted, group.IpPermissions ?? []);
  if (missing.length === 0) return groupId;
  const authorize = (permissions: IpPermission[]) =>
    ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: permissions }), { abortSignal: ctx.signal });
  try {
    await authorize(missing);
  } catch (error) {
    // A rule added since the describe (a concurrent admit) fails the whole batch: send one rule at a time.
    if (awsErrorCode(error) !== DUPLICATE) throw wrap(error, data, groupId, ruleCount(missing));
    for (const one of splitPermissions(missing)) {
      try {
        await authorize([one]);
      } catch (single) {
        if (awsErrorCode(single) !== DUPLICATE) throw wrap(single, data, groupId, ruleCount(missing));
      }
    }
  }
  return groupId;
}

/** The group with its rules: by id, or by Name and run tag when the ledger never got the id (a crash mid-create). */
async function findGroup(ec2: EC2Client, data: AwsResourceData, signal: AbortSignal): Promise<SecurityGroup | undefined> {
  try {
    const query = data.awsId
      ? { GroupIds: [data.awsId] }
      : { Filters: [{ Name: 'tag:Name', Values: [data.name] }, ...(data.runId ? [{ Name: `tag:${RUN_TAG}`, Values: [data.runId] }] : [])] };
    const out = await ec2.send(new DescribeSecurityGroupsCommand(query), { abortSignal: signal });
    return out.SecurityGroups?.[0];
  } catch (error) {
    if (awsErrorCode(error) === 'InvalidGroup.NotFound') return undefined;
    throw error;
  }
}

function wrap(error: unknown, data: AwsResourceData, groupId: string, rules: number): unknown {
  const mapped = mapAwsError(error, `${data.region} (security group ${groupId}, ${rules} peer rules)`);
  if (mapped !== error) return mapped;
  const detail = error instanceof Error ? error.message : String(error);
  return new Error(`aws: could not admit peer hosts to security group ${groupId} in ${data.region}: ${detail}`, { cause: error });
}
