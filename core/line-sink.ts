/**
 * The log's destination: lines for a file descriptor (stdout), written asynchronously in batches.
 *
 * Lines wait in an array and are joined once per write. (sonic-boom, pino's own destination, keeps
 * them in one string grown by `+=` and measures it on every line, which copies the whole waiting
 * text again per line: under load, kilobytes of garbage per request.) One write is in flight at a
 * time; lines that come meanwhile wait for the next. A stuck descriptor cannot grow the memory
 * without bound: beyond `maxPendingChars` lines are dropped and the count is written once the
 * descriptor takes text again.
 */
import { write as fsWrite, writeSync } from 'node:fs';

export interface LineSinkOptions {
  /** Waiting text (characters) that starts a write; less waits for `flush()`. */
  minChars: number;
  /** Waiting text beyond which new lines are dropped (counted). */
  maxPendingChars: number;
}

/** How long to wait before writing again to a descriptor that answered EAGAIN (a full pipe). */
const RETRY_MS = 10;

export class LineSink {
  #pending: string[] = [];
  #pendingChars = 0;
  #writing = false;
  #dropped = 0;
  #broken = false;

  constructor(
    private readonly fd: number,
    private readonly options: LineSinkOptions,
  ) {}

  /** pino's destination interface: one serialised line (or several). False when it was dropped. */
  write(line: string): boolean {
    if (this.#broken) return false;
    if (this.#pendingChars >= this.options.maxPendingChars) {
      this.#dropped++;
      return false;
    }
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (!this.#writing && this.#pendingChars >= this.options.minChars) this.#writeOut();
    return true;
  }

  /** Starts a write of whatever waits (the periodic flush of a quiet gateway). */
  flush(): void {
    if (!this.#writing && this.#pending.length > 0) this.#writeOut();
  }

  /**
   * Writes what waits synchronously (before exit). A write already in flight finishes on its own:
   * its lines may land after these.
   */
  flushSync(): void {
    if (this.#broken || this.#pending.length === 0) return;
    const bytes = this.#take();
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }

  /** Lines waiting (tests, diagnostics). */
  get pendingLines(): number {
    return this.#pending.length;
  }

  #take(): Buffer {
    let text = this.#pending.join('');
    if (this.#dropped > 0) {
      const msg = `${this.#dropped} log lines dropped: the log's destination did not keep up`;
      text += `${JSON.stringify({ level: 40, time: new Date().toISOString(), msg })}\n`;
      this.#dropped = 0;
    }
    this.#pending = [];
    this.#pendingChars = 0;
    return Buffer.from(text);
  }

  #writeOut(): void {
    this.#writing = true;
    this.#writeFrom(this.#take(), 0);
  }

  #writeFrom(bytes: Buffer, offset: number): void {
    fsWrite(this.fd, bytes, offset, bytes.length - offset, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(() => this.#writeFrom(bytes, offset), RETRY_MS).unref();
          return;
        }
        // The descriptor is gone (EPIPE, EBADF): there is nowhere left to write.
        this.#broken = true;
        this.#pending = [];
        this.#pendingChars = 0;
        this.#writing = false;
        return;
      }
      if (offset + written < bytes.length) return this.#writeFrom(bytes, offset + written);
      this.#writing = false;
      if (this.#pendingChars >= this.options.minChars) this.#writeOut();
    });
  }
}
