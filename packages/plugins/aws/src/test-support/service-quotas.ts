import { randomUUID } from 'node:crypto';
import { MOTO_ACCOUNT, type Reply } from './ec2-query.js';

/**
 * Service Quotas' GetServiceQuota for ServiceCode `ec2` (moto 5.2.5 knows only
 * `vpc` and answers NoSuchResourceException for ec2). AWS JSON 1.1 protocol:
 * POST with `X-Amz-Target: ServiceQuotasV20190624.GetServiceQuota`. Shapes from
 * https://docs.aws.amazon.com/servicequotas/2019-06-24/apireference/API_GetServiceQuota.html,
 * https://docs.aws.amazon.com/servicequotas/2019-06-24/apireference/API_ServiceQuota.html,
 * https://docs.aws.amazon.com/servicequotas/2019-06-24/apireference/CommonErrors.html (AccessDeniedException),
 * error body as in https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html (`__type`).
 * Quota names and codes: the EC2 on-demand vCPU quotas
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-on-demand-instances.html, "On-Demand Instance quotas";
 * the same codes as src/quota-class.ts). Default values are the stand-in's
 * choice (small, like a new account's); tests set the ones they need.
 */
export const GET_SERVICE_QUOTA = 'ServiceQuotasV20190624.GetServiceQuota';

/** Code -> quota name, usage class (the `AWS/Usage` metric's `Class`), default value. */
export const EC2_VCPU_QUOTAS: Readonly<Record<string, { readonly name: string; readonly usageClass: string; readonly defaultValue: number }>> = {
  'L-1216C47A': { name: 'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances', usageClass: 'Standard/OnDemand', defaultValue: 5 },
  'L-DB2E81BA': { name: 'Running On-Demand G and VT instances', usageClass: 'G/OnDemand', defaultValue: 0 },
  'L-417A185B': { name: 'Running On-Demand P instances', usageClass: 'P/OnDemand', defaultValue: 0 },
  'L-7295265B': { name: 'Running On-Demand X instances', usageClass: 'X/OnDemand', defaultValue: 0 },
  'L-74FC7D96': { name: 'Running On-Demand F instances', usageClass: 'F/OnDemand', defaultValue: 0 },
  'L-1945791B': { name: 'Running On-Demand Inf instances', usageClass: 'Inf/OnDemand', defaultValue: 0 },
  'L-2C3B7624': { name: 'Running On-Demand Trn instances', usageClass: 'Trn/OnDemand', defaultValue: 0 },
  'L-6E869C2A': { name: 'Running On-Demand DL instances', usageClass: 'DL/OnDemand', defaultValue: 0 },
  'L-43DA4232': { name: 'Running On-Demand High Memory instances', usageClass: 'HighMem/OnDemand', defaultValue: 0 },
  'L-F7808C92': { name: 'Running On-Demand HPC instances', usageClass: 'HPC/OnDemand', defaultValue: 0 },
};

const JSON_HEADERS = { 'content-type': 'application/x-amz-json-1.1' };

/** The applied EC2 vCPU quotas of the stand-in's account: per region, or for every region. */
export class Ec2QuotaTable {
  /** Answer AccessDeniedException, as for a principal without `servicequotas:GetServiceQuota`. */
  accessDenied = false;
  private readonly values = new Map<string, number>();

  /** Set a quota's applied value (`region` omitted: every region without its own value). */
  set(code: string, value: number, region?: string): void {
    if (!EC2_VCPU_QUOTAS[code]) throw new Error(`unknown EC2 quota code ${code}`);
    this.values.set(`${region ?? '*'} ${code}`, value);
  }

  value(code: string, region: string): number | undefined {
    return this.values.get(`${region} ${code}`) ?? this.values.get(`* ${code}`) ?? EC2_VCPU_QUOTAS[code]?.defaultValue;
  }

  /** The reply to a GetServiceQuota, or undefined when it is not about ec2 (moto answers those). */
  handle(body: string, region: string): Reply | undefined {
    let input: { ServiceCode?: unknown; QuotaCode?: unknown };
    try {
      input = JSON.parse(body) as typeof input;
    } catch {
      return jsonError('SerializationException', 'Request body is not valid JSON');
    }
    if (input.ServiceCode !== 'ec2') return undefined;
    if (this.accessDenied) {
      return jsonError(
        'AccessDeniedException',
        `User: arn:aws:iam::${MOTO_ACCOUNT}:user/netbench-test is not authorized to perform: servicequotas:GetServiceQuota because no identity-based policy allows the servicequotas:GetServiceQuota action`,
      );
    }
    const code = typeof input.QuotaCode === 'string' ? input.QuotaCode : '';
    const known = EC2_VCPU_QUOTAS[code];
    const value = this.value(code, region);
    if (!known || value === undefined) return jsonError('NoSuchResourceException', `The request failed because the specified quota ${code} does not exist.`);
    const quota = {
      ServiceCode: 'ec2',
      ServiceName: 'Amazon Elastic Compute Cloud (Amazon EC2)',
      QuotaArn: `arn:aws:servicequotas:${region}:${MOTO_ACCOUNT}:ec2/${code}`,
      QuotaCode: code,
      QuotaName: known.name,
      Value: value,
      Unit: 'None',
      Adjustable: true,
      GlobalQuota: false,
      UsageMetric: {
        MetricNamespace: 'AWS/Usage',
        MetricName: 'ResourceCount',
        MetricDimensions: { Class: known.usageClass, Resource: 'vCPU', Service: 'EC2', Type: 'Resource' },
        MetricStatisticRecommendation: 'Maximum',
      },
      QuotaAppliedAtLevel: 'ACCOUNT',
    };
    return { status: 200, headers: { ...JSON_HEADERS, 'x-amzn-requestid': randomUUID() }, body: JSON.stringify({ Quota: quota }) };
  }
}

function jsonError(type: string, message: string): Reply {
  return { status: 400, headers: { ...JSON_HEADERS, 'x-amzn-requestid': randomUUID(), 'x-amzn-errortype': type }, body: JSON.stringify({ __type: type, Message: message }) };
}
