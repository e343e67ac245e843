/** What admin.configs shares with other plugins: import this file and nothing else of the family. */
import { requestKey, serviceKey } from '../../../core/index.js';

/** The canonical id of the stored config a request used (whether it sent the id or the slug), for logs and analytics. */
export const StoredConfigIdKey = requestKey<string>('config.id');

/** A stored config as other plugins may see it: enough to check a reference to it. */
export interface StoredConfigRef {
  id: string;
  slug: string;
  /** The workspace it belongs to; undefined for an organisation-wide config. */
  workspaceId: string | undefined;
}

/** Stored configs looked up by id or slug (latest version, from the cache): admin routes check `default_config_id` with it. */
export interface StoredConfigs {
  find(organisationId: string, idOrSlug: string): Promise<StoredConfigRef | undefined>;
  /**
   * The config a key or workspace may take as its default (`default_config_id`): it exists in the
   * organisation and is not another workspace's. Throws a 400 naming the field otherwise.
   */
  defaultFor(organisationId: string, idOrSlug: string, workspaceId: string | undefined): Promise<StoredConfigRef>;
}

export const StoredConfigsService = serviceKey<StoredConfigs>('configs.stored');
