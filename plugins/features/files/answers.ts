/** Response shapes of the files routes (OpenAI file object and list). */
import { JsonPayload, type FileRecord, type GatewayResponse, type ProviderApi, type UpstreamReply } from '../../../core/index.js';

export function fileObject(record: FileRecord) {
  return {
    id: record.id,
    object: 'file',
    bytes: record.bytes,
    created_at: record.created_at,
    filename: record.filename,
    purpose: record.purpose,
    status: 'processed',
  };
}

export function jsonAnswer(value: unknown, status = 200): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json' }, json: JsonPayload.of(value) };
}

/** A provider's answer passed back as it streams in, with what describes it. */
export function passThrough(reply: UpstreamReply, api: ProviderApi): GatewayResponse {
  const headers: Record<string, string> = { 'content-type': reply.headers['content-type'] ?? 'application/octet-stream', 'x-gw-provider': api.provider };
  const length = reply.headers['content-length'];
  if (length !== undefined) headers['content-length'] = length;
  const requestId = reply.headers['x-request-id'];
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  return { status: reply.status, headers, stream: reply.body };
}
