/**
 * The services the kernel and the shared contracts define. A plugin names the ones it implements
 * in its manifest `provides` and the ones it needs in `requires`; it depends on a service, never on
 * the plugin that implements it, so implementations can be swapped (SQLite or PostgreSQL records,
 * memory or Redis state). Services of one plugin family are keyed in that family's contract file.
 */
import { serviceKey } from './service-key.js';
import type { CacheStore } from './cache.js';
import type { Changes } from './changes.js';
import type { GatewayDescription } from './describe.js';
import type { FileService } from './files.js';
import type { Kernel } from './kernel.js';
import type { KeyStore } from './keys.js';
import type { WorkLeases } from './leases.js';
import type { Logger } from './logger.js';
import type { Registries } from './registries.js';
import type { GatewaySettings } from './settings.js';
import type { StateStore } from './state.js';
import type { RecordStore, SecretBox } from './stores.js';
import type { Transport } from './types.js';

export type { ServiceKey, ServiceOf } from './service-key.js';
export { serviceKey } from './service-key.js';

/** What the `auth` service offers: the check of a gateway key on protected routes. */
export type KeyCheck = Pick<KeyStore, 'verify'>;

export const Services = {
  // Provided by the kernel itself, to every plugin.
  Kernel: serviceKey<Kernel>('kernel'),
  Settings: serviceKey<GatewaySettings>('settings'),
  Logger: serviceKey<Logger>('logger'),
  /** The shared outbound transport (providers, webhooks, exporters). */
  Transport: serviceKey<Transport>('transport'),
  Registries: serviceKey<Registries>('registries'),
  /** The invalidation bus (core/changes.ts), relayed by Redis when store.redis is loaded. */
  Changes: serviceKey<Changes>('changes'),
  /** Work leases (core/leases.ts) on the record store: one instance does each piece of background work. */
  WorkLeases: serviceKey<WorkLeases>('work-leases'),
  /** `() => GatewayDescription` (core/describe.ts): hooks, taps, registries and plugins of this gateway. */
  Description: serviceKey<() => GatewayDescription>('description'),

  // Provided by plugins.
  /** Relational records: store.sqlite, store.postgres. */
  Records: serviceKey<RecordStore>('records'),
  /** Shared counters and small state: state.memory, store.redis (a later provider takes over). */
  State: serviceKey<StateStore>('state'),
  /** Response-cache entries: cache.store-memory, store.redis. */
  Cache: serviceKey<CacheStore>('cache'),
  /** Stored files (uploads, batch input and output): feature.files. */
  Files: serviceKey<FileService>('files'),
  /** Encrypts small secrets at rest (stored credentials, batch configs): security.secret-box. */
  SecretBox: serviceKey<SecretBox>('secret-box'),
  /** Gateway API keys, their records and life cycle: auth.api-key. */
  KeyStore: serviceKey<KeyStore>('key-store'),
  /** The key check of protected routes (auth.api-key). A gateway serving protected routes without it refuses to boot unless allowed. */
  Auth: serviceKey<KeyCheck>('auth'),
} as const;

