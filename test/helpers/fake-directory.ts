/** A stand-in for admin.workspaces' Directory: the given methods, the others answering "unknown". */
import type { Directory } from '../../plugins/admin/workspaces/contract.js';

export function fakeDirectory(methods: Partial<Directory>): Directory {
  return {
    workspace: async () => undefined,
    member: async () => undefined,
    user: async () => undefined,
    keyName: async () => undefined,
    keysOfUser: async () => [],
    findOrCreatePerson: async () => { throw new Error('fakeDirectory: findOrCreatePerson not given'); },
    memberships: async () => [],
    joinWorkspace: async () => { throw new Error('fakeDirectory: joinWorkspace not given'); },
    ...methods,
  };
}
