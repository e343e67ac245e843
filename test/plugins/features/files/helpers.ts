/** Shared by the files and batches tests: a gateway with the three plugins, uploads, polling. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import FilesPlugin from '../../../../plugins/features/files/index.js';
import BatchesPlugin from '../../../../plugins/features/batches/index.js';
import { jsonReply, startGateway, TEST_API_KEY, type StartOptions, type TestGateway } from '../../../helpers/gateway.js';
import { Services, type PluginEntry } from '../../../../host/index.js';
import { onPostgres } from '../../../helpers/pg-schema.js';
import { withRecords } from '../../../helpers/records.js';
import { hashKey } from '../../../../plugins/security/api-key-auth/key-store.js';

export const KEY_HEADERS = Object.freeze({ 'x-gw-api-key': TEST_API_KEY });

export interface FeatureOptions {
  files?: Record<string, unknown>;
  batches?: Record<string, unknown>;
  /** Replaces the batches plugin class (e.g. one built with a fake clock). */
  batchesClass?: typeof BatchesPlugin;
  extra?: PluginEntry[];
  env?: Record<string, string>;
  start?: Omit<StartOptions, 'plugins' | 'env'>;
}

export function featurePlugins(options: FeatureOptions = {}): PluginEntry[] {
  return [
    SecretBoxPlugin,
    { use: FilesPlugin, options: options.files ?? {} },
    { use: options.batchesClass ?? BatchesPlugin, options: { ...options.batches } },
    ...(options.extra ?? []),
  ];
}

export function startFeatureGateway(options: FeatureOptions = {}): Promise<TestGateway> {
  return startGateway({ ...options.start, plugins: featurePlugins(options), env: options.env });
}

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...KEY_HEADERS, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body);
    if (!(body instanceof FormData)) (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, init);
  return jsonReply(res);
}

/** A multipart body; `purpose: null` leaves the purpose out. */
export function form(content: string | Uint8Array, purpose: string | null = 'batch', filename = 'input.jsonl'): FormData {
  const data = new FormData();
  if (purpose !== null) data.append('purpose', purpose);
  data.append('file', new Blob([content]), filename);
  return data;
}

export async function upload(base: string, content: string | Uint8Array, purpose = 'batch', headers: Record<string, string> = {}): Promise<any> {
  const reply = await call(base, 'POST', '/v1/files', headers, form(content, purpose));
  if (reply.status !== 200) throw new Error(`upload failed: ${reply.status} ${reply.text}`);
  return reply.json;
}

export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000, stepMs = 10): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** JSONL chat lines `{custom_id: prefix-i, ...}`. */
export function chatLines(count: number, prefix = 'req', extra: (i: number) => Record<string, unknown> = () => ({})): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    out += JSON.stringify({
      custom_id: `${prefix}-${i}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `line ${i}` }], ...extra(i) },
    }) + '\n';
  }
  return out;
}

export function parseJsonl(text: string): any[] {
  return text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

/** Adds a gateway key of another organisation/workspace straight into the store (the auth plugin seeds owner keys only). */
export async function addKey(gw: TestGateway, secret: string, organisationId: string, workspaceId: string | null = null): Promise<void> {
  const store = gw.gateway.runtime.services.get(Services.Records);
  await store.run(
    'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, workspace_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [`key-${secret}`, secret, 'workspace-service', hashKey(secret), organisationId, workspaceId, '["*"]', Math.floor(Date.now() / 1000)],
  );
}

/**
 * The names in a gateway's blob store, on whichever backend the run uses: the files folder on the
 * SQLite pass, the file ids of the chunk rows on the PostgreSQL pass (unfinished writes end in `.part…`).
 */
export async function blobNames(dataDir: string): Promise<string[]> {
  if (!onPostgres()) return (await readdir(join(dataDir, 'files'))).sort();
  return withRecords(dataDir, async (records) =>
    (await records.all<{ file_id: string }>('SELECT DISTINCT file_id FROM file_chunks ORDER BY file_id')).map((r) => r.file_id));
}

/** The stored bytes of `id` as text, read from the blob store itself (not through the gateway). */
export async function blobText(dataDir: string, id: string): Promise<string> {
  if (!onPostgres()) return readFile(join(dataDir, 'files', id), 'utf8');
  return withRecords(dataDir, async (records) => {
    const rows = await records.all<{ data: Buffer }>('SELECT data FROM file_chunks WHERE file_id = ? ORDER BY seq', [id]);
    return Buffer.concat(rows.map((r) => r.data)).toString('utf8');
  });
}
