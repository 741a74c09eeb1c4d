import { describe, expect, it } from 'vitest';
import { compactPolicyBody, sshFirewallBody, subnetBody } from '../bodies.js';
import { discoverySource, validateGceRequest } from './discovery.js';

// The stand-in's checks, against the Compute v1 discovery document that
// google-api-python-client ships (installed by scripts/moto.sh).
const P = 'projects/my-project';
const fields = (v: { field: string }[]) => v.map((x) => x.field);
const RUN = '20261125-013827-zqo7l4';

describe('Compute requests against the compute.v1 discovery document', () => {
  it('names the document it read', () => {
    expect(discoverySource()).toMatch(/^compute\.v1 discovery revision \d{8} \(google-api-python-client \d+\.\d+\.\d+\)$/);
  });

  it('accepts the bodies netbench sends', () => {
    expect(validateGceRequest('POST', `${P}/regions/us-central1/subnetworks`, {}, subnetBody(RUN, 'my-project', 'us-central1', '10.128.0.0/20'))).toEqual([]);
    expect(validateGceRequest('POST', `${P}/regions/us-central1/resourcePolicies`, {}, compactPolicyBody(RUN, 'us-central1-a'))).toEqual([]);
    expect(validateGceRequest('POST', `${P}/global/firewalls`, {}, sshFirewallBody(RUN, `${P}/global/networks/nb-${RUN}`, ['198.51.100.7/32']))).toEqual([]);
  });

  it('refuses a bare region name where the API documents a URL, and an output-only region', () => {
    const subnet = { ...subnetBody(RUN, 'my-project', 'us-central1', '10.128.0.0/20'), region: 'us-central1' };
    expect(fields(validateGceRequest('POST', `${P}/regions/us-central1/subnetworks`, {}, subnet))).toEqual(['region']);
    const policy = { ...compactPolicyBody(RUN, 'us-central1-a'), region: 'us-central1' };
    expect(validateGceRequest('POST', `${P}/regions/us-central1/resourcePolicies`, {}, policy)).toEqual([{ field: 'region', problem: 'output only: not set by the client' }]);
  });

  it('refuses names against the pattern, missing required names, unknown properties and enum values', () => {
    const rule = sshFirewallBody(RUN, `${P}/global/networks/n`, ['198.51.100.7/32']);
    expect(fields(validateGceRequest('POST', `${P}/global/firewalls`, {}, { ...rule, name: 'Rule_1' }))).toEqual(['name']);
    expect(fields(validateGceRequest('POST', `${P}/global/firewalls`, {}, { ...rule, name: undefined }))).toEqual(['name']);
    expect(fields(validateGceRequest('POST', `${P}/global/firewalls`, {}, { ...rule, direction: 'INBOUND' }))).toEqual(['direction']);
    expect(fields(validateGceRequest('POST', `${P}/global/firewalls`, {}, { ...rule, allowed: [{ protocol: 'tcp' }] }))).toEqual(['allowed[0].protocol']);
  });

  it('refuses unknown methods, bad path parameters and unknown query parameters', () => {
    expect(fields(validateGceRequest('PUT', `${P}/global/firewalls`, {}, {}))).toEqual(['(path)']);
    expect(fields(validateGceRequest('GET', `${P}/regions/US_CENTRAL1`, {}, undefined))).toEqual(['region']);
    expect(fields(validateGceRequest('GET', `${P}/zones/us-central1-a/instances/x/serialPort`, { port: '1', begin: '0' }, undefined))).toEqual(['?begin']);
  });
});
