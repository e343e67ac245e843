/**
 * Node's `clientError`: the request could not be parsed, or did not arrive in time. Node's own
 * answer is a bare status line; this one carries the error envelope, like every other answer.
 * Nothing of the request is echoed or logged (its bytes may hold keys).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Errors, type GatewayError, type Logger } from '../core/index.js';
import type { ConnectionLimits } from './connection-limits.js';
import { errorResponse } from './dispatch.js';

/** The rule each parser error breaks (llhttp's codes), in words a client can act on. */
const PARSER_RULES: Readonly<Record<string, readonly [rule: string, param: string | null]>> = {
  HPE_INVALID_METHOD: ['the request line does not start with a known method', null],
  HPE_INVALID_URL: ['the request line holds an invalid URL', null],
  HPE_INVALID_VERSION: ['the request line does not end with a valid HTTP version', null],
  HPE_INVALID_CONSTANT: ['the request line is not METHOD SP target SP HTTP/1.x', null],
  HPE_STRICT: ['the request line is not METHOD SP target SP HTTP/1.x', null],
  HPE_UNEXPECTED_CONTENT_LENGTH: ['content-length and transfer-encoding must not be sent together', 'content-length'],
  HPE_INVALID_TRANSFER_ENCODING: ['transfer-encoding must end with chunked and not come with content-length', 'transfer-encoding'],
  HPE_INVALID_CONTENT_LENGTH: ['content-length must be one decimal number', 'content-length'],
  HPE_INVALID_HEADER_TOKEN: ['a header name or value holds a character HTTP forbids (a NUL, a bare CR, a control character)', null],
  HPE_INVALID_CHUNK_SIZE: ['a chunk size of the chunked body is not a hexadecimal number', 'transfer-encoding'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: ['the chunk extensions of the chunked body are too long', 'transfer-encoding'],
  HPE_CR_EXPECTED: ['a line does not end with CRLF', null],
  HPE_LF_EXPECTED: ['a line does not end with CRLF', null],
};

type ParserError = Error & { code?: string };

/** The error to answer for a client error; `inFlight` is the request being received, if any. */
export function clientErrorFor(error: ParserError, limits: ConnectionLimits, inFlight: boolean): GatewayError {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') return Errors.headersTooLarge(limits.maxHeaderBytes);
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return inFlight ? Errors.bodyTimeout(limits.bodyTimeoutMs) : Errors.headersTimeout(limits.headersTimeoutMs);
  }
  const known = PARSER_RULES[code];
  return known ? Errors.malformedRequest(known[0], known[1]) : Errors.malformedRequest('the bytes are not an HTTP/1.1 request');
}

/** The answer written straight to the socket: there is no response object for an unparsed request. */
export function rawAnswer(error: GatewayError): string {
  const { json } = errorResponse(error);
  const body = json!.bytes();
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n`
    + `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
}

/**
 * The `clientError` listener. `responseOf` gives the socket's latest response: while it is being
 * written, nothing else may be; when its request is still arriving, the request is
 * destroyed with the same error, so the gateway records the status the client was sent.
 */
export function clientErrorListener(
  limits: ConnectionLimits, responseOf: (socket: Duplex) => ServerResponse | undefined, logger: Logger,
): (error: ParserError, socket: Duplex) => void {
  return (error, socket) => {
    // The client went away (or stopped sending) mid-request: nobody to answer; its body reader sees a 499.
    if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const res = responseOf(socket);
    const receiving = res !== undefined && !res.req.complete;
    const answer = clientErrorFor(error, limits, receiving);
    logger.debug({ code: error.code, status: answer.status }, 'client error');
    const answering = res !== undefined && res.headersSent && !res.writableFinished;
    if (socket.writable && !answering) socket.write(rawAnswer(answer));
    if (receiving) res.req.destroy(answer);
    else socket.destroy();
  };
}
