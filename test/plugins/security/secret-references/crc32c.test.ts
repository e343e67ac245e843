/** CRC-32C against the published check value and RFC 3720's test vectors (iSCSI uses the same polynomial). */
import { expect } from 'chai';
import { crc32c } from '../../../../plugins/security/secret-references/managers/crc32c.js';

describe('security.secret-references: CRC-32C', () => {
  it('matches the check value and the RFC 3720 vectors', () => {
    expect(crc32c(Buffer.from('123456789'))).to.equal(0xe3069283);
    expect(crc32c(Buffer.alloc(32, 0))).to.equal(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).to.equal(0x62a8ab43);
    expect(crc32c(Buffer.from(Array.from({ length: 32 }, (_, i) => i)))).to.equal(0x46dd794e);
    expect(crc32c(Buffer.alloc(0))).to.equal(0);
  });
});
