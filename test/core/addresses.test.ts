/** Address classification and CIDR ranges (core/addresses.ts): pure functions, no network. */
import { expect } from 'chai';
import { CidrRange, classifyAddress, familyOf, isPrivateAddress } from '../../core/addresses.js';

function range(text: string): CidrRange {
  const parsed = CidrRange.parse(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('core addresses', () => {
  describe('classifyAddress', () => {
    const cases: [string, string][] = [
      ['169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['100.100.100.200', 'metadata'],
      ['::ffff:169.254.169.254', 'metadata'],
      ['::ffff:a9fe:a9fe', 'metadata'],
      ['[fd00:ec2::254]', 'metadata'],
      ['169.254.0.1', 'link-local'],
      ['fe80::1', 'link-local'],
      ['febf::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['::ffff:169.254.10.10', 'link-local'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['::ffff:127.0.0.2', 'loopback'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['::ffff:192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fc00::1', 'private'],
      ['fd12:3456::1', 'private'],
      ['0.0.0.0', 'reserved'],
      ['224.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['::', 'reserved'],
      ['ff02::1', 'reserved'],
      ['172.15.255.255', 'public'],
      ['172.32.0.0', 'public'],
      ['192.169.0.1', 'public'],
      ['169.253.255.255', 'public'],
      ['fec0::1', 'public'],
      ['93.184.216.34', 'public'],
      ['2606:4700::1111', 'public'],
    ];
    for (const [address, expected] of cases) {
      it(`${address} is ${expected}`, () => expect(classifyAddress(address)).to.equal(expected));
    }
    it('does not judge host names (they are not addresses)', () => {
      expect(classifyAddress('metadata.google.internal')).to.equal('public');
      expect(classifyAddress('localhost')).to.equal('public');
    });
    it('isPrivateAddress is every class but public', () => {
      expect(['169.254.169.254', 'fe80::1', '10.1.2.3', '127.0.0.1', '::1', '0.0.0.0'].map(isPrivateAddress)).to.deep.equal([true, true, true, true, true, true]);
      expect(['8.8.8.8', '2001:4860:4860::8888'].map(isPrivateAddress)).to.deep.equal([false, false]);
    });
  });

  describe('CidrRange', () => {
    it('holds the first and last address of an IPv4 range and nothing around it', () => {
      const r = range('10.0.0.0/8');
      expect(r.contains('10.0.0.0', 'ipv4')).to.equal(true);
      expect(r.contains('10.255.255.255', 'ipv4')).to.equal(true);
      expect(r.contains('9.255.255.255', 'ipv4')).to.equal(false);
      expect(r.contains('11.0.0.0', 'ipv4')).to.equal(false);
    });
    it('judges an IPv4-mapped IPv6 address as its IPv4 address, in dotted and hex form', () => {
      const r = range('169.254.0.0/16');
      expect(r.contains('::ffff:169.254.169.254', 'ipv6')).to.equal(true);
      expect(r.contains('::ffff:a9fe:1', 'ipv6')).to.equal(true);
      expect(r.contains('::ffff:a9ff:1', 'ipv6')).to.equal(false);
    });
    it('a bare address is a one-address range; /32 and /128 likewise', () => {
      expect(range('127.0.0.2').contains('127.0.0.2', 'ipv4')).to.equal(true);
      expect(range('127.0.0.2').contains('127.0.0.3', 'ipv4')).to.equal(false);
      expect(range('127.0.0.2/32').contains('127.0.0.1', 'ipv4')).to.equal(false);
      expect(range('::1/128').contains('::1', 'ipv6')).to.equal(true);
      expect(range('::1/128').contains('::2', 'ipv6')).to.equal(false);
      expect(range('[::1]').contains('::1', 'ipv6')).to.equal(true);
    });
    it('an IPv6 /10 ends where its prefix ends', () => {
      const r = range('fe80::/10');
      expect(r.contains('fe80::', 'ipv6')).to.equal(true);
      expect(r.contains('febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6')).to.equal(true);
      expect(r.contains('fec0::', 'ipv6')).to.equal(false);
      expect(r.contains('fe7f:ffff::', 'ipv6')).to.equal(false);
    });
    it('/0 holds every address of its own family only', () => {
      expect(range('0.0.0.0/0').contains('203.0.113.9', 'ipv4')).to.equal(true);
      expect(range('0.0.0.0/0').contains('2001:db8::1', 'ipv6')).to.equal(false);
      expect(range('::/0').contains('2001:db8::1', 'ipv6')).to.equal(true);
    });
    it('keeps the text as written (for messages)', () => {
      expect(range('10.0.0.0/8').text).to.equal('10.0.0.0/8');
      expect(range('::1/128').family).to.equal('ipv6');
    });
    it('says why a text is not a range', () => {
      expect(CidrRange.parse('10.0.0.0/33')).to.equal('prefix "/33" must be a whole number 0..32');
      expect(CidrRange.parse('::/129')).to.equal('prefix "/129" must be a whole number 0..128');
      expect(CidrRange.parse('10.0.0.0/')).to.equal('prefix "/" must be a whole number 0..32');
      expect(CidrRange.parse('10.0.0.0/-1')).to.equal('prefix "/-1" must be a whole number 0..32');
      expect(CidrRange.parse('10.0.0.0/8.5')).to.equal('prefix "/8.5" must be a whole number 0..32');
      expect(CidrRange.parse('10.0.0/8')).to.equal('"10.0.0" is not an IPv4 or IPv6 address');
      expect(CidrRange.parse('example.com/8')).to.equal('"example.com" is not an IPv4 or IPv6 address');
      expect(CidrRange.parse('256.0.0.0/8')).to.equal('"256.0.0.0" is not an IPv4 or IPv6 address');
    });
  });

  it('familyOf tells addresses from names', () => {
    expect([familyOf('127.0.0.1'), familyOf('::1'), familyOf('localhost'), familyOf('1.2.3')]).to.deep.equal(['ipv4', 'ipv6', undefined, undefined]);
  });
});
