/**
 * CPU time of a server under test: user + system time of a process and every process below it
 * (cluster workers), from /proc/<pid>/stat. Read before and after a run and divided by the
 * requests served, it is the CPU a request costs each side, steadier than req/s on a machine
 * whose speed drifts. GC and thread-pool threads count (the kernel sums a process's threads).
 * Linux only: elsewhere `cpuTimesUs` answers undefined and the bench leaves the columns out.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  ppid: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

/**
 * Fields of /proc/<pid>/stat. The command name (field 2) is in parentheses and may hold spaces
 * and parentheses itself, so fields are counted after its last `)`: state is field 3, ppid 4,
 * utime 14, stime 15.
 */
export function parseProcStat(text: string): ProcStat {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  const fields = text.slice(close + 2).trim().split(' ');
  const at = (n: number) => Number(fields[n - 3]);
  const ppid = at(4);
  const ticks = at(14) + at(15);
  if (!Number.isFinite(ppid) || !Number.isFinite(ticks)) throw new Error(`unreadable /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  return { ppid, ticks };
}

/** The pid and all its descendants, given every process's parent. */
export function processTree(root: number, parents: ReadonlyMap<number, number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const tree: number[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    tree.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return tree;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100; // Linux's USER_HZ nearly everywhere
    }
  }
  return ticksPerSecond;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone meanwhile
  }
}

/**
 * CPU time (µs) used so far by each root pid and its descendants, from one pass over /proc;
 * undefined where there is no /proc or a root is gone.
 */
export function cpuTimesUs(roots: readonly number[]): number[] | undefined {
  if (process.platform !== 'linux') return undefined;
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    const n = Number(name);
    if (!Number.isInteger(n)) continue;
    const s = readStat(n);
    if (s) stats.set(n, s);
  }
  if (!roots.every((pid) => stats.has(pid))) return undefined;
  const parents = new Map([...stats].map(([p, s]) => [p, s.ppid]));
  return roots.map((root) => {
    let ticks = 0;
    for (const p of processTree(root, parents)) ticks += stats.get(p)?.ticks ?? 0;
    return (ticks / clockTicks()) * 1e6;
  });
}

/**
 * Waits until the first root is idle (under `idleShare` of one CPU over `stepMs`), at most
 * `maxMs`, and answers the CPU times then. Work a server defers past a run (batched log writes)
 * belongs to that run's requests, and must not land in the next side's run.
 */
export async function cpuTimesWhenIdle(roots: readonly number[], stepMs = 100, idleShare = 0.02, maxMs = 5000): Promise<number[] | undefined> {
  let last = cpuTimesUs(roots);
  const started = Date.now();
  while (last && Date.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, stepMs));
    const now = cpuTimesUs(roots);
    if (!now) return undefined;
    const busy = now[0]! - last[0]! > idleShare * stepMs * 1000;
    last = now;
    if (!busy) break;
  }
  return last;
}
