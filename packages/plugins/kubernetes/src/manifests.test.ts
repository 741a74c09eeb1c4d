import { describe, expect, it } from 'vitest';
import { hostSchema } from './host-schema.js';
import { podBody, serviceBody, servicePorts } from './manifests.js';
import { hostLabelValue, resourceName } from './naming.js';
import { podCauses, serviceCauses } from './test-support/api-rules.js';

const RUN = '20261125-013000-abc123';

describe('manifests', () => {
  it('pod and Service bodies pass the OpenAPI definitions and the API rules', () => {
    const config = hostSchema.parse({ hostNetwork: true, placement: { node: 'n1' } });
    const pod = podBody(RUN, 'client@zone=a,b', config);
    expect(podCauses(pod as never, 'default')).toEqual([]);
    expect(pod.spec).toMatchObject({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet', restartPolicy: 'Never' });
    const service = serviceBody(RUN, 'client@zone=a,b', config);
    expect(serviceCauses(service as never, 'default')).toEqual([]);
    expect(service.spec.selector).toEqual({ 'netbench.io/run': RUN, 'netbench.io/host': hostLabelValue(RUN, 'client@zone=a,b') });
  });

  it('the checks name the field of a body the API server would refuse', () => {
    const pod = podBody(RUN, 'w1', hostSchema.parse({}));
    expect(podCauses({ ...pod, spec: { ...pod.spec, hostNetwork: 'yes' } } as never, 'default').map((c) => c.field)).toContain('spec.hostNetwork');
    expect(podCauses({ ...pod, metadata: { ...pod.metadata, labels: { 'netbench.io/run': 'has space' } } } as never, 'default').map((c) => c.field)).toContain('metadata.labels');
    expect(podCauses(pod as never, 'other').map((c) => c.field)).toContain('metadata.namespace');
    const service = serviceBody(RUN, 'w1', hostSchema.parse({}));
    const ports = [
      { name: 'toolong-port-name-x', port: 1, targetPort: 1, protocol: 'TCP' },
      { name: 'b', port: 1, targetPort: 1, protocol: 'TCP' },
    ];
    expect(serviceCauses({ ...service, spec: { ...service.spec, ports } } as never, 'default').map((c) => c.field)).toEqual(['spec.ports[0].name', 'spec.ports[1]']);
  });

  it('names are DNS-1035 labels, distinct for ids that differ only in odd characters', () => {
    const a = resourceName(RUN, 'vm@zone=us-east1-b');
    const b = resourceName(RUN, 'vm@zone=us_east1_b');
    expect(a).toMatch(/^[a-z]([-a-z0-9]*[a-z0-9])?$/);
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(resourceName(RUN, 'x'.repeat(100)).length).toBeLessThanOrEqual(63);
    expect(resourceName(RUN, 'w1')).toBe(`nb-${RUN}-w1`);
  });

  it('lists every port of each range and protocol under an IANA service name', () => {
    expect(servicePorts([{ port: 5201, count: 2, protocols: ['TCP', 'UDP'] }])).toEqual([
      { name: 't5201', port: 5201, targetPort: 5201, protocol: 'TCP' },
      { name: 'u5201', port: 5201, targetPort: 5201, protocol: 'UDP' },
      { name: 't5202', port: 5202, targetPort: 5202, protocol: 'TCP' },
      { name: 'u5202', port: 5202, targetPort: 5202, protocol: 'UDP' },
    ]);
  });
});
