import { describe, expect, it } from 'vitest';
import { securityGroupDescription } from '../network.js';
import { serviceModel } from './botocore-model.js';
import { documentedConstraints, validateEc2Query, validateJson } from './request-validator.js';

// The stand-in's request checks, against botocore's EC2 and Service Quotas
// models as installed by scripts/moto.sh: what AWS refuses is refused here.
const ec2 = () => serviceModel('ec2', '2016-11-15');
const quotas = () => serviceModel('service-quotas', '2019-06-24');
const query = (params: Record<string, string>) => new URLSearchParams(params);
const fields = (violations: { field: string }[]) => violations.map((v) => v.field);

describe('EC2 Query requests against botocore ec2/2016-11-15', () => {
  it('reads the security group description character set from the model documentation', () => {
    const ref = ec2().shapes['CreateSecurityGroupRequest']!.members!['Description']!;
    const c = documentedConstraints(ref.documentation);
    expect(c.charsetText).toBe('a-z, A-Z, 0-9, spaces, and ._-:/()#,@[]+=&;{}!$*');
    expect(c.maxLength).toBe(255);
    expect(c.charset!.test('a:b/c (d) #e,f@[g]+h=i&j;k{l}!m$n*o.p_q-r')).toBe(true);
    expect(c.charset!.test("run's")).toBe(false);
    expect(c.charset!.test('naïve')).toBe(false);
  });

  it('refuses an apostrophe in GroupDescription, naming the field (the defect real accounts hit)', () => {
    const v = validateEc2Query(
      ec2(),
      'CreateSecurityGroup',
      query({ Action: 'CreateSecurityGroup', Version: '2016-11-15', GroupName: 'nb-x-sg', GroupDescription: "between the run's hosts", VpcId: 'vpc-1' }),
    );
    expect(fields(v)).toEqual(['GroupDescription']);
    expect(v[0]!.problem).toMatch(/characters the API refuses \("'"\)/);
  });

  it('accepts what the plugin sends as its security group description', () => {
    const v = validateEc2Query(
      ec2(),
      'CreateSecurityGroup',
      query({ GroupName: 'nb-20261125-013827-zqo7l4-sg', GroupDescription: securityGroupDescription('20261125-013827-zqo7l4'), VpcId: 'vpc-1' }),
    );
    expect(v).toEqual([]);
  });

  it('refuses a group name starting with sg- (documented), unknown and missing parameters, bad enums and types', () => {
    expect(fields(validateEc2Query(ec2(), 'CreateSecurityGroup', query({ GroupName: 'sg-mine', GroupDescription: 'd' })))).toEqual(['GroupName']);
    expect(fields(validateEc2Query(ec2(), 'CreateSecurityGroup', query({ GroupName: 'x' })))).toEqual(['GroupDescription']);
    expect(fields(validateEc2Query(ec2(), 'CreateVpc', query({ CidrBlock: '10.0.0.0/16', Cidr: '10.0.0.0/16' })))).toEqual(['Cidr']);
    const run = validateEc2Query(
      ec2(),
      'RunInstances',
      query({ ImageId: 'ami-1', MinCount: 'one', MaxCount: '1', InstanceType: 'm9.huge', 'BlockDeviceMapping.1.Ebs.VolumeType': 'gp9' }),
    );
    expect(fields(run).sort()).toEqual(['BlockDeviceMapping.1.Ebs.VolumeType', 'InstanceType', 'MinCount']);
  });

  it('walks lists and nested structures by their Query names (TagSpecification.N.Tag.M.Key)', () => {
    expect(
      validateEc2Query(
        ec2(),
        'CreateVpc',
        query({ CidrBlock: '10.0.0.0/16', 'TagSpecification.1.ResourceType': 'vpc', 'TagSpecification.1.Tag.1.Key': 'k', 'TagSpecification.1.Tag.1.Value': 'v' }),
      ),
    ).toEqual([]);
    expect(fields(validateEc2Query(ec2(), 'CreateVpc', query({ CidrBlock: '10.0.0.0/16', 'TagSpecification.1.ResourceType': 'vpcs' })))).toEqual([
      'TagSpecification.1.ResourceType',
    ]);
  });

  it('refuses an action the model does not have', () => {
    expect(fields(validateEc2Query(ec2(), 'CreateTeleporter', query({})))).toEqual(['Action']);
  });
});

describe('Service Quotas JSON requests against botocore service-quotas/2019-06-24', () => {
  it('accepts GetServiceQuota as the plugin sends it and refuses missing, unknown and malformed members', () => {
    expect(validateJson(quotas(), 'GetServiceQuota', { ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' })).toEqual([]);
    expect(fields(validateJson(quotas(), 'GetServiceQuota', { ServiceCode: 'ec2' }))).toEqual(['QuotaCode']);
    expect(fields(validateJson(quotas(), 'GetServiceQuota', { ServiceCode: 'ec2', QuotaCode: 'L-1216C47A', Region: 'x' }))).toEqual(['Region']);
    expect(fields(validateJson(quotas(), 'GetServiceQuota', { ServiceCode: '', QuotaCode: 'L-1216C47A' }))).toEqual(['ServiceCode', 'ServiceCode']);
  });
});
