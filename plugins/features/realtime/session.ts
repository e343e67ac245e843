/**
 * One realtime session: the accepted client socket and its upstream socket, relayed both ways.
 *
 *   accept client (paused) → open upstream (handshake time-out, outbound policy on its addresses)
 *     ├─ refused / failed → client closed 1014 with the reason
 *     └─ open → client resumed; frames relayed as they came (text stays text, binary binary)
 *   either side closes → the other is closed with its code and reason (close-codes.ts)
 *
 * Backpressure: when the receiving side's send buffer passes `highWaterBytes`, the sending side
 * is no longer read (TCP pushes back on its peer) until the buffer has drained. Frames over
 * `maxFrameBytes` close their sender's socket with 1009. A session silent both ways for
 * `idleTimeoutMs` is closed with 1001. `end` is called once, when the client socket has closed.
 */
import type { LookupFunction } from 'node:net';
import { WebSocket, type RawData } from 'ws';
import { fitReason, passedOn, BAD_GATEWAY, GOING_AWAY, TOO_BIG } from './close-codes.js';
import type { UpstreamTarget } from './upstream-target.js';
import { SessionUsage } from './usage.js';

export interface SessionLimits {
  handshakeTimeoutMs: number;
  idleTimeoutMs: number;
  maxFrameBytes: number;
  highWaterBytes: number;
}

export interface SessionEnd {
  /** Whether the upstream accepted the session. */
  opened: boolean;
  /** Who closed first: `client`, `upstream`, or `gateway` (time-out, oversized frame, shutdown, upstream failure). */
  closedBy: 'client' | 'upstream' | 'gateway';
  /** The close code of the side that closed first (1006: its connection dropped). */
  code: number;
  reason: string;
  /** Why the upstream failed (refused, unreachable, dropped), when it did. */
  upstreamError?: string;
  usage: SessionUsage;
  /** Frames relayed: client → upstream, upstream → client. */
  framesIn: number;
  framesOut: number;
}

const OVERSIZED = 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
/** The status of the request signal's reason when the client went away (Errors.clientClosed). */
const CLIENT_CLOSED = 499;

export class RealtimeSession {
  readonly #usage = new SessionUsage();
  readonly #upstream: WebSocket;
  #opened = false;
  #first: Pick<SessionEnd, 'closedBy' | 'code' | 'reason'> | undefined;
  #upstreamError: string | undefined;
  #idle: NodeJS.Timeout | undefined;
  #framesIn = 0;
  #framesOut = 0;

  constructor(
    private readonly client: WebSocket,
    target: UpstreamTarget,
    protocols: readonly string[],
    private readonly limits: SessionLimits,
    lookup: LookupFunction,
    stop: AbortSignal,
    end: (result: SessionEnd) => void,
  ) {
    // Nothing is read from the client until the upstream can take it.
    client.pause();
    this.#upstream = new WebSocket(target.url, [...protocols], {
      headers: target.headers,
      handshakeTimeout: limits.handshakeTimeoutMs,
      maxPayload: limits.maxFrameBytes,
      perMessageDeflate: false,
      followRedirects: false,
      lookup,
    });
    this.#wireUpstream();
    this.#wireClient(end);
    // The request's signal also ends when the client's socket closes: that close speaks for itself.
    const onStop = () => {
      if ((stop.reason as { status?: number } | undefined)?.status !== CLIENT_CLOSED) this.#closeBoth(GOING_AWAY, 'the gateway is shutting down');
    };
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    client.once('close', () => stop.removeEventListener('abort', onStop));
  }

  #wireUpstream(): void {
    const upstream = this.#upstream;
    upstream.on('unexpected-response', (request, response) => {
      // The handshake was answered with a plain HTTP status (bad credential, unknown model ...).
      this.#upstreamError = `upstream refused the session: HTTP ${response.statusCode ?? 0}`;
      response.resume();
      request.destroy();
      this.#failClient(this.#upstreamError);
    });
    upstream.on('error', (error: Error & { code?: string }) => {
      if (error.code === OVERSIZED) {
        this.#note('gateway', TOO_BIG, 'upstream sent a frame over maxFrameBytes');
        this.#closeClient(TOO_BIG, 'upstream sent a frame over maxFrameBytes');
        return;
      }
      this.#upstreamError ??= this.#opened ? `upstream connection failed: ${error.message}` : `upstream unreachable: ${error.message}`;
      this.#failClient(this.#upstreamError);
    });
    upstream.on('open', () => {
      this.#opened = true;
      this.#touch();
      this.#relay(this.client, upstream, 'in');
      this.#relay(upstream, this.client, 'out');
      this.client.resume();
    });
    upstream.on('close', (code, reason) => {
      if (!this.#opened) return;
      if (code === 1006) this.#upstreamError ??= 'upstream connection lost';
      this.#note('upstream', code, reason.toString('utf8'));
      const frame = passedOn(code, reason, 'client');
      this.#closeClient(frame.code, frame.reason);
    });
  }

  #wireClient(end: (result: SessionEnd) => void): void {
    const client = this.client;
    client.on('error', (error: Error & { code?: string }) => {
      if (error.code === OVERSIZED) this.#note('gateway', TOO_BIG, 'client sent a frame over maxFrameBytes');
    });
    client.on('close', (code, reason) => {
      clearTimeout(this.#idle);
      this.#note('client', code, reason.toString('utf8'));
      const upstream = this.#upstream;
      if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
      else if (upstream.readyState === WebSocket.OPEN) {
        const frame = this.#first?.closedBy === 'gateway' ? { code: GOING_AWAY, reason: this.#first.reason } : passedOn(code, reason, 'upstream');
        upstream.close(frame.code, frame.reason === undefined ? undefined : fitReason(frame.reason));
      }
      const first = this.#first!;
      end({
        opened: this.#opened, ...first, upstreamError: this.#upstreamError, usage: this.#usage,
        framesIn: this.#framesIn, framesOut: this.#framesOut,
      });
    });
  }

  /** Frames of `from` go to `to` as they came; `from` is not read while `to` cannot keep up. */
  #relay(from: WebSocket, to: WebSocket, direction: 'in' | 'out'): void {
    const { highWaterBytes } = this.limits;
    const resumeIfDrained = () => {
      if (from.isPaused && to.bufferedAmount <= highWaterBytes && from.readyState === WebSocket.OPEN) from.resume();
    };
    from.on('message', (data: RawData, isBinary: boolean) => {
      this.#touch();
      const frame = data as Buffer;
      if (direction === 'out') {
        this.#framesOut++;
        this.#usage.observe(frame, isBinary);
      } else {
        this.#framesIn++;
      }
      if (to.readyState !== WebSocket.OPEN) return;
      to.send(frame, { binary: isBinary }, resumeIfDrained);
      if (to.bufferedAmount > highWaterBytes) from.pause();
    });
  }

  #touch(): void {
    const ms = this.limits.idleTimeoutMs;
    if (ms <= 0) return;
    if (this.#idle) this.#idle.refresh();
    else this.#idle = setTimeout(() => this.#closeBoth(GOING_AWAY, `idle for ${ms} ms`), ms);
  }

  /** The first close of the session is the one reported. */
  #note(closedBy: SessionEnd['closedBy'], code: number, reason: string): void {
    this.#first ??= { closedBy, code, reason };
  }

  #failClient(reason: string): void {
    this.#note('gateway', BAD_GATEWAY, reason);
    this.#closeClient(BAD_GATEWAY, reason);
  }

  #closeClient(code: number | undefined, reason: string | undefined): void {
    const client = this.client;
    // A paused client would never read the peer's answer to our close frame.
    client.resume();
    if (client.readyState === WebSocket.OPEN) client.close(code, reason === undefined ? undefined : fitReason(reason));
  }

  #closeBoth(code: number, reason: string): void {
    this.#note('gateway', code, reason);
    this.#closeClient(code, reason);
    const upstream = this.#upstream;
    if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
    else if (upstream.readyState === WebSocket.OPEN) upstream.close(code, fitReason(reason));
  }
}
