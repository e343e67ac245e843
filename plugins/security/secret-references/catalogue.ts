/**
 * Every secret reference of the store, in memory (core/record-catalogue.ts): a request resolves a
 * reference without touching the store; a changed reference is a new object, so its value is fetched afresh.
 */
import { RecordCatalogue } from '../../../core/index.js';
import type { SecretReference } from './record.js';
import type { SecretReferenceRepo } from './repo.js';

export const SECRET_REFERENCES_TOPIC = 'secret-references';

export class SecretReferenceCatalogue extends RecordCatalogue<SecretReference> {
  constructor(repo: SecretReferenceRepo) {
    super({ topic: SECRET_REFERENCES_TOPIC, all: () => repo.all(), });
  }
}
