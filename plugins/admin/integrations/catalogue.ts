/**
 * Every integration of the store, in memory (core/record-catalogue.ts): requests resolve `@slug`
 * (or an integration's default-provider slug) and virtual keys without touching the store.
 */
import { RecordCatalogue } from '../../../core/index.js';
import type { Integration } from './record.js';
import type { IntegrationRepo } from './repo.js';

export const INTEGRATIONS_TOPIC = 'integrations';

export class IntegrationCatalogue extends RecordCatalogue<Integration> {
  constructor(repo: IntegrationRepo) {
    super({ topic: INTEGRATIONS_TOPIC, all: () => repo.all(),
      aliases: (integration) => (integration.providerSlug !== undefined ? [integration.providerSlug] : []), });
  }
}
