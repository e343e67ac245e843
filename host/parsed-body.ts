/**
 * Bodies a framework read before the gateway (Express's express.json()/raw()/text(), a Fastify
 * route's parsers). The stream is spent, so waiting on it would hang until the client gives up:
 * the gateway takes what the parser left instead, under the same size and depth rules.
 */
import type { IncomingMessage } from 'node:http';
import { Errors, jsonDepthRule, type GatewayError } from '../core/index.js';
import { parseJson } from './dispatch.js';

/** What body parsers leave on the request: `body`, and `rawBody` when an Express `verify` kept the bytes. */
interface ParsedRequest extends IncomingMessage {
  body?: unknown;
  rawBody?: unknown;
}

/**
 * Whether something before the gateway already read the body stream: it ended, or it was set
 * flowing and nothing is left in it. A request nobody touched has `readableFlowing === null`.
 */
export function bodyAlreadyRead(req: IncomingMessage): boolean {
  return req.readableEnded || (req.complete && req.readableLength === 0 && req.readableFlowing !== null);
}

export interface TakenBody {
  bytes: Uint8Array;
  /** The JSON value: the parser's own object, or the raw bytes parsed (json mode only). */
  value: unknown;
}

/**
 * The body a parser left. Raw bytes (`req.rawBody`, or a Buffer/string `req.body`) are used as
 * sent, so forwarding stays byte for byte; a parsed value is checked for depth and serialised once.
 */
export function takeParsedBody(req: IncomingMessage, json: boolean, limit: number, maxDepth: number): TakenBody {
  const { body, rawBody } = req as ParsedRequest;
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw Errors.payloadTooLarge(limit);
  const raw = bytesOf(rawBody) ?? bytesOf(body);
  if (raw) {
    if (raw.byteLength > limit) throw Errors.payloadTooLarge(limit);
    return { bytes: raw, value: json ? parseJson(raw, maxDepth) : undefined };
  }
  if (body === undefined) throw bodyReadElsewhere();
  if (valueNestsDeeperThan(body, maxDepth)) throw Errors.invalidBody('', jsonDepthRule(maxDepth));
  const bytes = Buffer.from(JSON.stringify(body));
  if (bytes.byteLength > limit) throw Errors.payloadTooLarge(limit);
  return { bytes, value: body };
}

function bytesOf(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value);
  return undefined;
}

/** Same rule as nestsDeeperThan on the text: `{}` is one level. Recursion stops at `max`, so the stack stays short. */
export function valueNestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (max === 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) if (valueNestsDeeperThan(child, max - 1)) return true;
  return false;
}

const HOW_TO_MOUNT = 'mount the gateway before the body parser (Express: app.use(gateway.handle) before express.json(); Fastify: an onRequest hook; see docs/embedding.md)';

/** The stream was read and no parser left its result in req.body. */
export function bodyReadElsewhere(): GatewayError {
  return Errors.misconfigured(`the request body was read before the gateway and no parsed body was left in req.body: ${HOW_TO_MOUNT}`, 'body_already_read');
}

/** An upload route streams its body on; a parser that read it whole defeats that. */
export function uploadReadElsewhere(): GatewayError {
  return Errors.misconfigured(`this route streams its body (uploads) and a body parser read it first: skip the parser for this path, or ${HOW_TO_MOUNT}`, 'body_already_read');
}

/** The Fetch front end's counterpart: a Request whose body stream was used (Hono's c.req.json() ...). */
export function requestBodyUsed(): GatewayError {
  return Errors.misconfigured('the Request body was already read (bodyUsed) before gateway.fetch: pass the request before anything reads its body (Hono: gateway.fetch(c.req.raw) before c.req.json(); see docs/embedding.md)', 'body_already_read');
}
