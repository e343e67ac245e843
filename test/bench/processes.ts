/**
 * Child processes of the bench: start a node script, wait for its `listening on http://` line,
 * and make sure every child dies with the bench (normal end, error, Ctrl-C).
 * Output goes to a log file, not a pipe: the parent runs the load generator and must not spend
 * CPU draining a chatty child; the log's tail is shown when a child fails to start.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface ServerProcess {
  name: string;
  /** e.g. http://127.0.0.1:PORT, as printed by the child. */
  url: string;
  logFile: string;
  proc: ChildProcess;
}

const live = new Set<ChildProcess>();

/** A port that was free a moment ago (for servers that must be told their port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

export async function startServer(
  name: string,
  script: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
  timeoutMs = 20_000,
  cpu?: number,
  nodeArgs: readonly string[] = [],
): Promise<ServerProcess> {
  const fd = openSync(logFile, 'w');
  const command = [process.execPath, ...nodeArgs, script, ...args];
  // V8 prints its traces (`--trace-gc-nvp`) through stdio, block-buffered into a log file: line
  // buffering puts a run's lines in the log by the time the run ends. stdbuf execs in place.
  if (nodeArgs.length > 0) command.unshift('stdbuf', '-oL');
  // taskset execs node in place: the child's pid is the server's.
  if (cpu !== undefined) command.unshift('taskset', '-c', String(cpu));
  const proc = spawn(command[0]!, command.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd); // the child holds its own copy
  live.add(proc);
  proc.once('exit', () => live.delete(proc));

  const started = Date.now();
  for (;;) {
    const m = /listening on (http:\/\/[^\s/]+)/.exec(tail(logFile, 1000));
    if (m) return { name, url: m[1]!, logFile, proc };
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`${name} exited before listening (code ${proc.exitCode ?? proc.signalCode}). Log ${logFile}:\n${tail(logFile)}`);
    }
    if (Date.now() - started > timeoutMs) {
      await stop(proc);
      throw new Error(`${name} did not print "listening on http://" within ${timeoutMs} ms. Log ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** SIGTERM (the gateway drains and exits), then SIGKILL if it takes more than 3 s. */
export function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => proc.kill('SIGKILL'), 3000);
    proc.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map(stop));
}

/** Kills children on every way out: normal exit, uncaught error, SIGINT, SIGTERM. */
export function killChildrenOnExit(): void {
  process.on('exit', () => {
    for (const p of live) p.kill('SIGKILL'); // only synchronous work is possible here
  });
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping child processes`);
      void stopAll().finally(() => process.exit(code));
    });
  }
}

/**
 * `--pin`: the load generator (this process) and the upstream on CPU 0, the server under test
 * (gateway or bare proxy) alone on CPU 1, so the scheduler does not hand one side more of the
 * machine than the other from run to run. Linux with taskset and two CPUs or more only.
 */
export function pinSelf(cpu: number): void {
  execFileSync('taskset', ['-cp', String(cpu), String(process.pid)], { stdio: 'ignore' });
}
