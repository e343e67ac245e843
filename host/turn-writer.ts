/**
 * Whole answers are written together at the end of the event loop's turn, not one by one as each
 * is ready, when other requests are in flight.
 *
 * Why: writing to a socket whose reader sleeps makes the kernel wake that reader (on loopback and
 * in VMs an inter-processor interrupt, paid by the writer inside the write call). Written one at a
 * time, every answer of a busy turn wakes the client or proxy in front of us again; written in one
 * burst, the first write wakes it and the rest find it awake (docs/performance.md).
 *
 * The cost is latency within one turn: an answer ready early in a turn waits for the other
 * callbacks of that turn. So an answer is held only when another request is in flight, whose answer
 * could join it; the only request in flight is answered at once.
 * Streams are not held: their headers and chunks go out as they come.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

interface PendingWrite {
  res: ServerResponse;
  status: number;
  reason: string | undefined;
  headers: OutgoingHttpHeaders;
  body: Uint8Array | string | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class TurnWriter {
  #pending: PendingWrite[] = [];
  #inFlight = 0;
  readonly #flush = () => this.#writeAll();

  /** A request is being served: from now until `ended`, another request's answer may wait for its turn to end. */
  started(): void {
    this.#inFlight++;
  }

  /** The request `started` announced is answered (or given up). */
  ended(): void {
    this.#inFlight--;
  }

  /** Settles once the answer is handed to the socket (or found unwritable: a client gone meanwhile). */
  write(res: ServerResponse, status: number, reason: string | undefined, headers: OutgoingHttpHeaders, body: Uint8Array | string | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const write = { res, status, reason, headers, body, resolve, reject };
      if (this.#inFlight <= 1 && this.#pending.length === 0) return writeOne(write);
      if (this.#pending.push(write) === 1) setImmediate(this.#flush);
    });
  }

  #writeAll(): void {
    const batch = this.#pending;
    this.#pending = [];
    for (const w of batch) writeOne(w);
  }
}

function writeOne(w: PendingWrite): void {
  try {
    // The client went away while the answer waited: there is no one left to write to.
    if (!w.res.destroyed) {
      w.res.writeHead(w.status, w.reason, w.headers);
      w.res.end(w.body);
    }
    w.resolve();
  } catch (e) {
    w.reject(e);
  }
}
