/** The outbound host policy's decisions (core/outbound-policy.ts): pure, nothing is resolved or connected. */
import { expect } from 'chai';
import type { LookupAddress } from 'node:dns';
import { GatewayError, HostRules } from '../../core/index.js';
import { OutboundPolicy } from '../../core/outbound-policy.js';

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

function policy(deny?: string, allow?: string): OutboundPolicy {
  return new OutboundPolicy({
    deny: deny === undefined ? undefined : HostRules.parse(deny, 'GW_OUTBOUND_DENY'),
    allow: allow === undefined ? undefined : HostRules.parse(allow, 'GW_OUTBOUND_ALLOW'),
  });
}

function expectRefusal(refusal: GatewayError | undefined, message: string): void {
  expect(refusal, 'a refusal').to.be.instanceOf(GatewayError);
  expect(refusal!.status).to.equal(403);
  expect(refusal!.code).to.equal('outbound_host_denied');
  expect(refusal!.retryable).to.equal(false);
  expect(refusal!.toEnvelope().error).to.deep.equal({ message, type: 'permission_error', param: null, code: 'outbound_host_denied' });
}

describe('core OutboundPolicy', () => {
  describe('the default deny list (always on)', () => {
    const defaults = policy();
    it('refuses cloud metadata and link-local addresses given as IP literals', () => {
      expectRefusal(defaults.judgeHost('169.254.169.254'), 'outbound host "169.254.169.254" is refused: it matches rule "169.254.0.0/16" of the default deny list');
      expectRefusal(defaults.judgeHost('[fd00:ec2::254]'), 'outbound host "fd00:ec2::254" is refused: it matches rule "fd00:ec2::254/128" of the default deny list');
      expectRefusal(defaults.judgeHost('fe80::1'), 'outbound host "fe80::1" is refused: it matches rule "fe80::/10" of the default deny list');
      expectRefusal(defaults.judgeHost('::ffff:169.254.169.254'), 'outbound host "::ffff:169.254.169.254" is refused: it matches rule "169.254.0.0/16" of the default deny list');
      expectRefusal(defaults.judgeHost('100.100.100.200'), 'outbound host "100.100.100.200" is refused: it matches rule "100.100.100.200/32" of the default deny list');
    });
    it('refuses the metadata host names before they are resolved', () => {
      expectRefusal(defaults.judgeHost('metadata.google.internal'), 'outbound host "metadata.google.internal" is refused: it matches rule "metadata.google.internal" of the default deny list');
      expectRefusal(defaults.judgeHost('METADATA.Google.Internal.'), 'outbound host "METADATA.Google.Internal." is refused: it matches rule "metadata.google.internal" of the default deny list');
    });
    it('refuses a name that resolves to a metadata address', () => {
      expectRefusal(defaults.judgeResolved('innocent.example', [v4('169.254.169.254')]),
        'outbound host "innocent.example" (address 169.254.169.254) is refused: it matches rule "169.254.0.0/16" of the default deny list');
    });
    it('lets loopback, private and public addresses through', () => {
      for (const host of ['127.0.0.1', '::1', '10.0.0.1', '192.168.1.1', '93.184.216.34', 'api.openai.com']) {
        expect(defaults.judgeHost(host), host).to.equal(undefined);
      }
      expect(defaults.judgeResolved('localhost', [v4('127.0.0.1'), v6('::1')])).to.equal(undefined);
    });
    it('stays on when an operator deny list is given', () => {
      expectRefusal(policy('10.0.0.0/8').judgeHost('169.254.169.254'), 'outbound host "169.254.169.254" is refused: it matches rule "169.254.0.0/16" of the default deny list');
    });
  });

  describe('GW_OUTBOUND_DENY', () => {
    const deny = policy('127.0.0.2/32, *.corp.example, ::1');
    it('refuses an IP literal in a range, and a name by wildcard before resolving', () => {
      expectRefusal(deny.judgeHost('127.0.0.2'), 'outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2/32" of GW_OUTBOUND_DENY');
      expectRefusal(deny.judgeHost('[::1]'), 'outbound host "::1" is refused: it matches rule "::1" of GW_OUTBOUND_DENY');
      expectRefusal(deny.judgeHost('db.corp.example'), 'outbound host "db.corp.example" is refused: it matches rule "*.corp.example" of GW_OUTBOUND_DENY');
      expect(deny.judgeHost('127.0.0.1')).to.equal(undefined);
    });
    it('refuses a name when any of its addresses is denied', () => {
      expectRefusal(deny.judgeResolved('localhost', [v4('127.0.0.1'), v6('::1')]),
        'outbound host "localhost" (address ::1) is refused: it matches rule "::1" of GW_OUTBOUND_DENY');
      expect(deny.judgeResolved('localhost', [v4('127.0.0.1')])).to.equal(undefined);
    });
  });

  describe('GW_OUTBOUND_ALLOW', () => {
    const allow = policy(undefined, '127.0.0.1/32, api.example.com');
    it('lets through what it names, by address or by name', () => {
      expect(allow.judgeHost('127.0.0.1')).to.equal(undefined);
      expect(allow.judgeResolved('localhost', [v4('127.0.0.1')])).to.equal(undefined);
      expect(allow.judgeResolved('api.example.com', [v4('203.0.113.7')])).to.equal(undefined);
    });
    it('refuses everything else', () => {
      expectRefusal(allow.judgeHost('127.0.0.2'), 'outbound host "127.0.0.2" is refused: it matches no rule of GW_OUTBOUND_ALLOW');
      expectRefusal(allow.judgeResolved('other.example.com', [v4('203.0.113.7')]),
        'outbound host "other.example.com" (address 203.0.113.7) is refused: it matches no rule of GW_OUTBOUND_ALLOW');
      expectRefusal(allow.judgeResolved('localhost', [v4('127.0.0.1'), v6('::1')]),
        'outbound host "localhost" (address ::1) is refused: it matches no rule of GW_OUTBOUND_ALLOW');
    });
    it('an empty allow list is no allow list', () => {
      expect(policy(undefined, ' , ').judgeHost('127.0.0.2')).to.equal(undefined);
    });
  });

  describe('deny wins over allow', () => {
    it('an address both allowed and denied is refused', () => {
      expectRefusal(policy('127.0.0.2', '127.0.0.0/8').judgeHost('127.0.0.2'), 'outbound host "127.0.0.2" is refused: it matches rule "127.0.0.2" of GW_OUTBOUND_DENY');
    });
    it('a name allowed by name is still refused when it resolves to a denied address', () => {
      const p = policy('10.0.0.0/8', 'api.example.com');
      expectRefusal(p.judgeResolved('api.example.com', [v4('10.1.2.3')]),
        'outbound host "api.example.com" (address 10.1.2.3) is refused: it matches rule "10.0.0.0/8" of GW_OUTBOUND_DENY');
      expectRefusal(policy(undefined, '*.example.com').judgeResolved('api.example.com', [v4('169.254.169.254')]),
        'outbound host "api.example.com" (address 169.254.169.254) is refused: it matches rule "169.254.0.0/16" of the default deny list');
    });
    it('an allow list cannot lift the default deny list', () => {
      expectRefusal(policy(undefined, '169.254.0.0/16').judgeHost('169.254.169.254'), 'outbound host "169.254.169.254" is refused: it matches rule "169.254.0.0/16" of the default deny list');
    });
  });
});
