/**
 * Whole answers are written together at the end of the event loop's turn, not one by one as each
 * is ready.
 *
 * Why: writing to a socket whose reader sleeps makes the kernel wake that reader (on loopback and
 * in VMs an inter-processor interrupt, paid by the writer inside the write call). Written one at a
 * time, every answer of a busy turn wakes the client or proxy in front of us again; written in one
 * burst, the first write wakes it and the rest find it awake (docs/performance.md).
 *
 * The cost is latency within one turn: an answer ready early in a turn waits for the other
 * callbacks of that turn; a lone request is written in the same turn.
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
  readonly #flush = () => this.#writeAll();

  /** Settles once the answer is handed to the socket (or found unwritable: a client gone meanwhile). */
  write(res: ServerResponse, status: number, reason: string | undefined, headers: OutgoingHttpHeaders, body: Uint8Array | string | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#pending.push({ res, status, reason, headers, body, resolve, reject }) === 1) setImmediate(this.#flush);
    });
  }

  #writeAll(): void {
    const batch = this.#pending;
    this.#pending = [];
    for (const w of batch) {
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
  }
}
