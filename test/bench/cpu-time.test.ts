/** The bench's CPU accounting: /proc/<pid>/stat fields, process trees, and a real process tree's time. */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpuTimesUs, cpuTimesWhenIdle, parseProcStat, processTree } from './cpu-time.js';

// A stat line as Linux writes it (52 fields), its command name holding spaces and parentheses.
const statLine = (comm: string, ppid: number, utime: number, stime: number) =>
  `4242 (${comm}) S ${ppid} 4242 4242 0 -1 4194560 1234 0 0 0 ${utime} ${stime} 7 8 20 0 11 0 123456 1000000 2000 ` +
  '18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n';

describe('bench: cpu time', () => {
  it('reads ppid, utime and stime after the last parenthesis of the command name', () => {
    expect(parseProcStat(statLine('node', 1, 150, 25))).to.deep.equal({ ppid: 1, ticks: 175 });
    expect(parseProcStat(statLine('a) S 9 9 (b', 77, 3, 4))).to.deep.equal({ ppid: 77, ticks: 7 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('no parenthesis here')).to.throw(/not a \/proc/);
    expect(() => parseProcStat('1 (x) S')).to.throw(/unreadable/);
  });

  it('finds a process and every descendant, not its siblings', () => {
    const parents = new Map([[10, 1], [11, 10], [12, 10], [13, 11], [20, 1], [21, 20]]);
    expect(processTree(10, parents).sort()).to.deep.equal([10, 11, 12, 13]);
    expect(processTree(21, parents)).to.deep.equal([21]);
  });

  it('parses this process\'s own stat file', function () {
    if (process.platform !== 'linux') this.skip();
    expect(parseProcStat(readFileSync(`/proc/${process.pid}/stat`, 'utf8')).ppid).to.equal(process.ppid);
  });

  it('counts a busy child in its idle parent\'s time (cluster workers count for their primary)', async function () {
    if (process.platform !== 'linux') this.skip();
    this.timeout(20_000);
    const busy = 'const t = Date.now(); while (Date.now() - t < 8000);';
    const parentScript = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(busy)}], { stdio: 'ignore' }); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentScript], { stdio: 'ignore' });
    try {
      const own = () => (parseProcStat(readFileSync(`/proc/${parent.pid}/stat`, 'utf8')).ticks / 100) * 1e6;
      const started = Date.now();
      let tree = 0;
      // The machine may be busy: wait until the child has had 300 ms of CPU.
      while (Date.now() - started < 15_000) {
        tree = cpuTimesUs([parent.pid!])![0]!;
        if (tree - own() > 300_000) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(tree - own()).to.be.greaterThan(300_000);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('waits for a server\'s deferred work: reads its time once it is idle again', async function () {
    if (process.platform !== 'linux') this.skip();
    this.timeout(20_000);
    // Busy for 300 ms of its own CPU after start-up, then idle: like a log flush after a run.
    const script = "process.stdout.write('go\\n'); const u = () => process.cpuUsage().user; const t = u(); while (u() - t < 300000); setInterval(() => {}, 1000);";
    const p = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise((r) => p.stdout!.once('data', r));
      const before = cpuTimesUs([p.pid!])![0]!;
      const after = (await cpuTimesWhenIdle([p.pid!], 1000, 0.02, 15_000))![0]!;
      expect(after - before).to.be.greaterThan(200_000);
      const started = Date.now();
      await cpuTimesWhenIdle([p.pid!]); // idle now: one step
      expect(Date.now() - started).to.be.lessThan(2000);
    } finally {
      p.kill('SIGKILL');
    }
  });

  it('answers undefined for a process that is gone', async function () {
    if (process.platform !== 'linux') this.skip();
    const p = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => p.once('exit', r));
    expect(cpuTimesUs([p.pid!])).to.equal(undefined);
  });
});
