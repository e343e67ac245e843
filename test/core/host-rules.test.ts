/** Host rule lists (core/host-rules.ts), as GW_OUTBOUND_ALLOW / GW_OUTBOUND_DENY and customHostAllow write them. */
import { expect } from 'chai';
import { HostRules } from '../../core/index.js';

describe('core HostRules', () => {
  it('parses a comma-separated text: names, wildcards and ranges, blanks and spaces ignored', () => {
    const rules = HostRules.parse(' api.example.com, *.internal ,, 10.0.0.0/8,::1/128, ', 'GW_OUTBOUND_DENY');
    expect(rules.entries).to.deep.equal(['api.example.com', '*.internal', '10.0.0.0/8', '::1/128']);
    expect(rules.source).to.equal('GW_OUTBOUND_DENY');
    expect(rules.empty).to.equal(false);
    expect(HostRules.parse(' , ', 'X').empty).to.equal(true);
  });

  it('matches names exactly, case-insensitively, a trailing dot ignored', () => {
    const rules = HostRules.parse('Api.Example.com', 'X');
    expect(rules.matchName('api.example.com')).to.equal('api.example.com');
    expect(rules.matchName('API.EXAMPLE.COM.')).to.equal('api.example.com');
    expect(rules.matchName('example.com')).to.equal(undefined);
    expect(rules.matchName('xapi.example.com')).to.equal(undefined);
  });

  it('a leading *. matches every sub-domain, not the domain itself nor look-alikes', () => {
    const rules = HostRules.parse('*.internal', 'X');
    expect(rules.matchName('metadata.internal')).to.equal('*.internal');
    expect(rules.matchName('a.b.internal')).to.equal('*.internal');
    expect(rules.matchName('internal')).to.equal(undefined);
    expect(rules.matchName('notinternal')).to.equal(undefined);
    expect(rules.matchName('internal.example.com')).to.equal(undefined);
  });

  it('matches addresses against ranges, and never names against ranges or addresses against names', () => {
    const rules = HostRules.parse('127.0.0.0/8, localhost', 'X');
    expect(rules.matchAddress('127.0.0.2', 'ipv4')).to.equal('127.0.0.0/8');
    expect(rules.matchAddress('::ffff:127.0.0.2', 'ipv6')).to.equal('127.0.0.0/8');
    expect(rules.matchAddress('128.0.0.1', 'ipv4')).to.equal(undefined);
    expect(rules.matchName('127.0.0.1')).to.equal(undefined);
  });

  it('matchHost judges IP literals (bracketed or not) as addresses and the rest as names', () => {
    const rules = HostRules.parse('::1, 127.0.0.1/32, *.example.com', 'X');
    expect(rules.matchHost('[::1]')).to.equal('::1');
    expect(rules.matchHost('127.0.0.1')).to.equal('127.0.0.1/32');
    expect(rules.matchHost('a.example.com')).to.equal('*.example.com');
    expect(rules.matchHost('127.0.0.2')).to.equal(undefined);
  });

  it('accepts a list of entries as well as a text', () => {
    expect(HostRules.parse(['127.0.0.1/32', ' *.example.com '], 'opt').entries).to.deep.equal(['127.0.0.1/32', '*.example.com']);
  });

  it('refuses an entry that is not a rule, naming the source and the entry', () => {
    const cases: [string, string][] = [
      ['10.0.0.0/33', 'GW_OUTBOUND_DENY: entry "10.0.0.0/33" is not a host rule: prefix "/33" must be a whole number 0..32'],
      ['10.0.0/8', 'GW_OUTBOUND_DENY: entry "10.0.0/8" is not a host rule: "10.0.0" is not an IPv4 or IPv6 address'],
      ['https://api.example.com', 'GW_OUTBOUND_DENY: entry "https://api.example.com" is not a host rule: write a host name or a CIDR range, without scheme or port'],
      ['http://127.0.0.1/v1', 'GW_OUTBOUND_DENY: entry "http://127.0.0.1/v1" is not a host rule: write a host name or a CIDR range, without scheme or port'],
      ['127.0.0.1:8080', 'GW_OUTBOUND_DENY: entry "127.0.0.1:8080" is not a host rule: write a host name or a CIDR range, without scheme or port'],
      ['api.example.com:443', 'GW_OUTBOUND_DENY: entry "api.example.com:443" is not a host rule: write a host name or a CIDR range, without scheme or port'],
      ['*', 'GW_OUTBOUND_DENY: entry "*" is not a host rule: a lone "*" is not a rule (0.0.0.0/0 and ::/0 cover every address)'],
      ['api-*.example.com', 'GW_OUTBOUND_DENY: entry "api-*.example.com" is not a host rule: not a host name; the only wildcard is a leading "*." (as in *.example.com)'],
      ['*.*.example.com', 'GW_OUTBOUND_DENY: entry "*.*.example.com" is not a host rule: not a host name; the only wildcard is a leading "*." (as in *.example.com)'],
      ['exa mple.com', 'GW_OUTBOUND_DENY: entry "exa mple.com" is not a host rule: not a host name; the only wildcard is a leading "*." (as in *.example.com)'],
      ['-bad.example.com', 'GW_OUTBOUND_DENY: entry "-bad.example.com" is not a host rule: not a host name; the only wildcard is a leading "*." (as in *.example.com)'],
    ];
    for (const [entry, message] of cases) {
      expect(() => HostRules.parse(`127.0.0.1, ${entry}`, 'GW_OUTBOUND_DENY'), entry).to.throw(Error, message);
    }
  });
});
