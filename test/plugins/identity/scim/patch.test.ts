/** PatchOp application on plain resources: the path forms and the shapes identity providers send. */
import { expect } from 'chai';
import { applyPatch, patchOperations } from '../../../../plugins/identity/scim/patch.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const ops = (...operations: unknown[]) => patchOperations({ schemas: [PATCH], Operations: operations });

describe('identity.scim: PATCH operations', () => {
  const user = { userName: 'a@example.com', name: { givenName: 'A', familyName: 'B' }, emails: [{ value: 'a@example.com', type: 'work', primary: true }] };

  it('matches attribute names without case and leaves the input alone', () => {
    const patched = applyPatch(user, ops({ op: 'replace', path: 'NAME.GIVENNAME', value: 'Z' }), USER);
    expect(patched['name']).to.deep.equal({ givenName: 'Z', familyName: 'B' });
    expect(user.name.givenName).to.equal('A');
  });

  it('merges complex values, appends to multi-valued ones without duplicates', () => {
    const patched = applyPatch(user, ops(
      { op: 'add', value: { name: { formatted: 'A B' } } },
      { op: 'add', path: 'emails', value: [{ value: 'a@example.com' }, { value: 'home@example.com', type: 'home' }] },
    ), USER);
    expect(patched['name']).to.deep.equal({ givenName: 'A', familyName: 'B', formatted: 'A B' });
    expect((patched['emails'] as unknown[]).length).to.equal(2);
  });

  it('removes elements by filter and sub-attributes of matching elements', () => {
    const twoEmails = { ...user, emails: [...user.emails, { value: 'h@example.com', type: 'home' }] };
    expect(applyPatch(twoEmails, ops({ op: 'remove', path: 'emails[type eq "home"]' }), USER)['emails']).to.deep.equal(user.emails);
    expect(applyPatch(twoEmails, ops({ op: 'remove', path: 'emails[type eq "work"].primary' }), USER)['emails']).to.deep.equal([
      { value: 'a@example.com', type: 'work' }, { value: 'h@example.com', type: 'home' },
    ]);
  });

  it('names core attributes with the core URN and extension attributes with theirs', () => {
    const patched = applyPatch(user, ops(
      { op: 'replace', path: `${USER}:userName`, value: 'b@example.com' },
      { op: 'add', value: { 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager': { value: 'm1' } } },
    ), USER);
    expect(patched['userName']).to.equal('b@example.com');
    expect(patched['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).to.deep.equal({ manager: { value: 'm1' } });
  });

  it('refuses operations without a value, unknown ops, and too many operations', () => {
    expect(() => ops({ op: 'add', path: 'x' })).to.throw('value: is required for add');
    expect(() => ops({ op: 'copy', path: 'x', value: 1 })).to.throw('must be add, remove or replace');
    expect(() => patchOperations({ schemas: [PATCH], Operations: Array.from({ length: 1001 }, () => ({ op: 'remove', path: 'x' })) })).to.throw('at most 1000');
    expect(() => patchOperations({ schemas: [PATCH], Operations: [] })).to.throw('non-empty');
  });
});
