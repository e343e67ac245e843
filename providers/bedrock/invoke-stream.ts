/**
 * InvokeModelWithResponseStream for Claude → the Anthropic Messages event stream. Each event-stream
 * frame of event type `chunk` carries `{"bytes": "<base64 of one Anthropic event JSON>"}`; every one
 * becomes `event: <type>\ndata: <json>\n\n` as it arrives (never buffered). An `exception` frame is
 * thrown as a GatewayError: the Messages stream guard ends the stream with an Anthropic `error` event.
 */
import { Errors } from '../../core/index.js';
import { bedrockStreamError, bedrockStreamException } from './errors.js';
import { eventStreamMessages, headerString, payloadJson, type EventMessage } from './event-frames.js';
import { PROVIDER_ID } from './target.js';

const encoder = new TextEncoder();

export async function* invokeStreamToMessagesSse(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const message of eventStreamMessages(source)) {
    const messageType = headerString(message, ':message-type');
    if (messageType === 'exception') throw exceptionOf(message, headerString(message, ':exception-type') ?? 'internalServerException');
    if (messageType === 'error') {
      throw bedrockStreamError(headerString(message, ':error-code') ?? '', headerString(message, ':error-message') ?? '');
    }
    // Event types added after this adapter was written carry nothing for the client.
    if (headerString(message, ':event-type') !== 'chunk') continue;
    yield sseOf(anthropicEventOf(message));
  }
}

function exceptionOf(message: EventMessage, type: string) {
  let payload: unknown;
  try {
    payload = payloadJson(message);
  } catch {
    payload = undefined;
  }
  return bedrockStreamException(type, payload);
}

/** The decoded Anthropic event and its type. */
function anthropicEventOf(message: EventMessage): { type: string; event: unknown } {
  let bytes: unknown;
  try {
    bytes = (payloadJson(message) as { bytes?: unknown } | null)?.bytes;
  } catch {
    bytes = undefined;
  }
  if (typeof bytes !== 'string') throw malformed('a chunk without base64 bytes');
  const json = Buffer.from(bytes, 'base64').toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(json);
  } catch {
    throw malformed('a chunk that is not JSON');
  }
  const type = (event as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !/^[a-z_]+$/.test(type)) throw malformed('a chunk that is not a Messages event');
  return { type, event };
}

function sseOf({ type, event }: { type: string; event: unknown }): Uint8Array {
  // Written again on one line: the JSON Bedrock relays may hold line breaks between tokens.
  return encoder.encode(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`);
}

function malformed(what: string) {
  return Errors.badGateway(`provider ${PROVIDER_ID} streamed ${what}`, PROVIDER_ID);
}
