/**
 * moto-plus: a loopback HTTP stand-in in front of moto, for the AWS calls
 * moto 5.2.5 lacks. Everything else goes to moto byte for byte.
 *
 * What is moto (src/test-support/moto-server.ts, the real emulator): STS,
 * every EC2 resource the plugin makes (VPCs, subnets, gateways, route tables,
 * security groups, key pairs, instances, images, console output), and Service
 * Quotas for ServiceCode `vpc`.
 *
 * What is the stand-in (this folder), built to the AWS documentation:
 * - EC2 CreatePlacementGroup / DescribePlacementGroups / DeletePlacementGroup
 *   (moto answers an HTML 500) — `placement-groups.ts`, shapes from
 *   https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CreatePlacementGroup.html,
 *   https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DescribePlacementGroups.html,
 *   https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_DeletePlacementGroup.html,
 *   https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_PlacementGroup.html;
 *   errors (`InvalidPlacementGroup.Unknown`, `.InUse`, `.Duplicate`) in EC2's
 *   XML error body, https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html.
 * - RunInstances `Placement.GroupName`/`GroupId`: checked against the groups
 *   (unknown: `InvalidPlacementGroup.Unknown`, nothing forwarded), then
 *   forwarded unchanged; the launched instance ids are remembered as members.
 *   A group is in use while moto says one of its members is not terminated.
 * - DescribeInstances: the `placement-group-name` filter (moto raises
 *   NotImplementedError on it) is turned into the equivalent `instance-id`
 *   filter; answers of RunInstances and DescribeInstances get their empty
 *   `<placement><groupName/>` filled
 *   (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Placement.html).
 * - Service Quotas GetServiceQuota for ServiceCode `ec2` (moto knows only
 *   `vpc`) with settable values and an access-denied switch — `service-quotas.ts`,
 *   https://docs.aws.amazon.com/servicequotas/2019-06-24/apireference/API_GetServiceQuota.html.
 * Other Service Quotas operations (ListServiceQuotas, …) and other services'
 * quotas go to moto.
 *
 * Before anything answers, every EC2, STS and Service Quotas request is
 * checked against botocore's service model of that API (the official
 * definitions; `botocore-model.ts`, `request-validator.ts`): a request AWS
 * would refuse (unknown parameter, missing required one, wrong type, value
 * outside an enum, a documented character set or length) is answered 400
 * naming the parameter, and kept in `violations`, so the test fails. The AWS SDK v3 clients talk to the stand-in exactly as
 * to AWS (`endpoint` = `MotoPlus.endpoint`); `actions` records every EC2/STS
 * Query action with its parameters as sent, for tests to check order and content.
 */
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serviceModel } from './botocore-model.js';
import { ec2Error, type Reply, signedRegion } from './ec2-query.js';
import { type MotoServer, startMoto } from './moto-server.js';
import { PlacementGroupStore } from './placement-groups.js';
import { type Violation, validateEc2Query, validateJson } from './request-validator.js';
import { Ec2QuotaTable, GET_SERVICE_QUOTA } from './service-quotas.js';

/** One EC2 Query action that came through the stand-in, in arrival order. */
export interface SeenAction {
  readonly action: string;
  readonly region: string;
  readonly params: Readonly<Record<string, string>>;
  /** HTTP status of the answer (undefined while in flight). */
  readonly status: number | undefined;
  /** Who answered. */
  readonly by: 'stand-in' | 'moto';
}

export interface MotoPlus {
  /** Give this to the SDK clients (`NETBENCH_AWS_ENDPOINT`). */
  readonly endpoint: string;
  readonly moto: MotoServer;
  readonly placementGroups: PlacementGroupStore;
  readonly quotas: Ec2QuotaTable;
  readonly actions: readonly SeenAction[];
  /** Requests refused because botocore's model forbids them (the tests expect none). */
  readonly violations: readonly (Violation & { readonly operation: string; readonly model: string })[];
  stop(): Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders | Readonly<Record<string, string>>;
  readonly body: Buffer | string;
}

/** The service a SigV4 request was signed for (`…/REGION/SERVICE/aws4_request`). */
function signedService(authorization: string | undefined): string {
  return /Credential=[^/]+\/\d{8}\/[a-z0-9-]+\/([a-z0-9-]+)\//.exec(authorization ?? '')?.[1] ?? 'ec2';
}

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';
const ALIVE = ['pending', 'running', 'shutting-down', 'stopping', 'stopped'];
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Start moto and the stand-in in front of it, both on 127.0.0.1 at free ports. */
export async function startMotoPlus(): Promise<MotoPlus> {
  const moto = await startMoto();
  // Load botocore's models now (Python is asked where botocore is), not inside the first request a test times.
  serviceModel('ec2', '2016-11-15');
  serviceModel('sts', '2011-06-15');
  serviceModel('service-quotas', '2019-06-24');
  const upstream = new URL(moto.endpoint);
  const agent = new Agent({ keepAlive: true });
  const placementGroups = new PlacementGroupStore();
  const quotas = new Ec2QuotaTable();
  const violations: (Violation & { operation: string; model: string })[] = [];
  const refuse = (operation: string, model: string, found: Violation[]): string => {
    violations.push(...found.map((v) => ({ ...v, operation, model })));
    return `netbench stand-in, checked against ${model}: ${found.map((v) => `${v.field}: ${v.problem}`).join('; ')}`;
  };
  const actions: { action: string; region: string; params: Record<string, string>; status: number | undefined; by: 'stand-in' | 'moto' }[] = [];

  const forward = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer | string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = typeof body === 'string' ? Buffer.from(body) : body;
      const out: OutgoingHttpHeaders = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      const req = httpRequest(
        { host: upstream.hostname, port: upstream.port, method, path, agent, headers: { ...out, host: upstream.host, 'content-length': payload.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  /** Which of `ids` moto still has alive (signed as the caller, so the same region and account). */
  const liveInstances = async (headers: IncomingHttpHeaders, ids: string[]): Promise<string[]> => {
    const query = new URLSearchParams({ Action: 'DescribeInstances', Version: '2016-11-15', 'Filter.1.Name': 'instance-id', 'Filter.2.Name': 'instance-state-name' });
    ids.forEach((id, i) => query.set(`Filter.1.Value.${i + 1}`, id));
    ALIVE.forEach((state, i) => query.set(`Filter.2.Value.${i + 1}`, state));
    const answer = await forward('POST', '/', { authorization: headers.authorization, 'content-type': FORM }, query.toString());
    if (answer.status !== 200) throw new Error(`moto DescribeInstances answered ${answer.status}: ${answer.body.toString()}`);
    return [...answer.body.toString().matchAll(/<instanceId>([^<]+)<\/instanceId>/g)].map((m) => m[1]!);
  };

  const patched = (answer: Answer, region: string): Answer =>
    answer.status === 200 ? { ...answer, body: placementGroups.patchInstancesXml(answer.body.toString(), region) } : answer;

  const ec2Action = async (action: string, params: URLSearchParams, region: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer | Reply> => {
    switch (action) {
      case 'CreatePlacementGroup':
        return placementGroups.create(params, region);
      case 'DescribePlacementGroups':
        return placementGroups.describe(params, region);
      case 'DeletePlacementGroup':
        return placementGroups.delete(params, region, (ids) => liveInstances(headers, ids));
      case 'RunInstances': {
        const { group, refusal } = placementGroups.launchTarget(params, region);
        if (refusal) return refusal;
        const answer = await forward('POST', '/', headers, body);
        if (group && answer.status === 200)
          placementGroups.join(
            group,
            [...answer.body.toString().matchAll(/<instanceId>([^<]+)<\/instanceId>/g)].map((m) => m[1]!),
          );
        return patched(answer, region);
      }
      case 'DescribeInstances': {
        const rewritten = placementGroups.rewriteInstanceFilters(params, region);
        return patched(await forward('POST', '/', headers, rewritten ? rewritten.toString() : body), region);
      }
      default:
        return forward('POST', '/', headers, body);
    }
  };

  const STAND_IN = new Set(['CreatePlacementGroup', 'DescribePlacementGroups', 'DeletePlacementGroup']);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const region = signedRegion(req.headers.authorization);
        const contentType = req.headers['content-type'] ?? '';
        let answer: Answer | Reply;
        let seen: (typeof actions)[number] | undefined;
        const target = req.headers['x-amz-target'];
        if (typeof target === 'string' && target.startsWith('ServiceQuotasV20190624.')) {
          const model = serviceModel('service-quotas', '2019-06-24');
          const operation = target.slice(target.indexOf('.') + 1);
          const found = validateJson(model, operation, body.length ? JSON.parse(body.toString()) : {});
          if (found.length) {
            answer = {
              status: 400,
              headers: { 'content-type': 'application/x-amz-json-1.1' },
              body: JSON.stringify({ __type: 'ValidationException', message: refuse(operation, model.source, found) }),
            };
          } else if (target === GET_SERVICE_QUOTA) {
            answer = quotas.handle(body.toString(), region) ?? (await forward(req.method!, req.url!, req.headers, body));
          } else {
            answer = await forward(req.method!, req.url!, req.headers, body);
          }
        } else if (req.method === 'POST' && contentType.startsWith('application/x-www-form-urlencoded') && new URLSearchParams(body.toString()).has('Action')) {
          const params = new URLSearchParams(body.toString());
          const action = params.get('Action')!;
          seen = { action, region, params: Object.fromEntries(params), status: undefined, by: STAND_IN.has(action) ? 'stand-in' : 'moto' };
          actions.push(seen);
          const service = signedService(req.headers.authorization);
          const model = service === 'sts' ? serviceModel('sts', '2011-06-15') : serviceModel('ec2', '2016-11-15');
          const found = validateEc2Query(model, action, params);
          answer = found.length
            ? ec2Error(
                found.some((v) => v.problem.startsWith('unknown parameter'))
                  ? 'UnknownParameter'
                  : found.some((v) => v.problem.startsWith('required'))
                    ? 'MissingParameter'
                    : 'InvalidParameterValue',
                refuse(action, model.source, found),
              )
            : await ec2Action(action, params, region, req.headers, body);
        } else {
          answer = await forward(req.method!, req.url!, req.headers, body);
        }
        if (seen) seen.status = answer.status;
        const payload = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([k, v]) => v !== undefined && !HOP_BY_HOP.has(k)));
        res.writeHead(answer.status, { ...headers, 'content-length': payload.length });
        res.end(payload);
      })().catch((error: unknown) => {
        // A stand-in fault shows as a 500 the SDK reports, never as a hang.
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`moto-plus: ${error instanceof Error ? error.stack : String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    moto,
    placementGroups,
    quotas,
    actions,
    violations,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await moto.stop();
    },
  };
}
