/** What admin.configs shares with other plugins: import this file and nothing else of the family. */
import { requestKey } from '../../../core/index.js';

/** The canonical id of the stored config a request used (whether it sent the id or the slug), for logs and analytics. */
export const StoredConfigIdKey = requestKey<string>('config.id');
