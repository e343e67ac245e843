/**
 * `--gc`: what the garbage collector did for one run of a server under test, read from the
 * `--trace-gc-nvp` lines in its log (the server runs with that flag). Bytes allocated, surviving a
 * minor GC, and promoted per request do not drift with the machine's speed the way req/s does:
 * they tell two builds apart where throughput alone is noise.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export interface GcStats {
  /** Bytes allocated in the young generation per request. */
  allocated: number;
  /** Bytes that survived a minor GC (copied) per request. */
  survived: number;
  /** Bytes promoted to the old generation per request. */
  promoted: number;
  /** Main-thread pause of minor and major GCs, µs per request. */
  pauseUs: number;
  /** Minor GCs (scavenges) in the run. */
  scavenges: number;
}

/** The server's log size now: where a run's GC lines start. */
export function logOffset(logFile: string): number {
  return statSync(logFile).size;
}

/** GC figures of the log lines written since `from`, divided by `requests`. */
export function gcStatsSince(logFile: string, from: number, requests: number): GcStats {
  const text = readFrom(logFile, from);
  let allocated = 0;
  let survived = 0;
  let promoted = 0;
  let pauseMs = 0;
  let scavenges = 0;
  for (const line of text.split('\n')) {
    const kind = /\bgc=(\w+)/.exec(line)?.[1];
    if (kind === undefined) continue;
    pauseMs += field(line, 'pause');
    if (kind !== 's') continue;
    scavenges++;
    allocated += field(line, 'allocated');
    survived += field(line, 'new_space_survived');
    promoted += field(line, 'promoted');
  }
  const per = (n: number) => (requests > 0 ? n / requests : 0);
  return { allocated: per(allocated), survived: per(survived), promoted: per(promoted), pauseUs: per(pauseMs * 1000), scavenges };
}

function field(line: string, name: string): number {
  const m = new RegExp(`\\b${name}=([0-9.]+)`).exec(line);
  return m ? Number(m[1]) : 0;
}

function readFrom(file: string, from: number): string {
  const size = statSync(file).size;
  if (size <= from) return '';
  const buf = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, from);
  } finally {
    closeSync(fd);
  }
  return buf.toString('utf8');
}
