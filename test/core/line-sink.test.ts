/** LineSink against real descriptors: a file, a full non-blocking FIFO (EAGAIN), a FIFO nobody reads any more. */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineSink } from '../../core/line-sink.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}

const line = (i: number) => `{"n":${i},"pad":"${'x'.repeat(40)}"}\n`;

describe('LineSink', () => {
  let dir: string;
  const fds: number[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-sink-'));
  });
  afterEach(() => {
    for (const fd of fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        /* closed by the test */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  function fileSink(minChars: number, maxPendingChars = 1 << 20) {
    const file = join(dir, 'log');
    const fd = openSync(file, 'w');
    fds.push(fd);
    return { sink: new LineSink(fd, { minChars, maxPendingChars }), read: () => readFileSync(file, 'utf8') };
  }

  it('holds lines below minChars until flush, then writes them in order', async () => {
    const { sink, read } = fileSink(1 << 20);
    for (let i = 0; i < 10; i++) expect(sink.write(line(i))).to.equal(true);
    await sleep(20);
    expect(read()).to.equal('');
    expect(sink.pendingLines).to.equal(10);
    sink.flush();
    await until(() => read().length > 0 && sink.pendingLines === 0);
    await until(() => read().split('\n').length === 11);
    expect(read()).to.equal(Array.from({ length: 10 }, (_, i) => line(i)).join(''));
  });

  it('writes by itself past minChars, one write at a time, and loses no line in between', async () => {
    const { sink, read } = fileSink(256);
    const n = 5000;
    for (let i = 0; i < n; i++) sink.write(line(i));
    await until(() => sink.pendingLines < n);
    // What was left under minChars when the last write finished waits for a flush.
    await sleep(50);
    sink.flush();
    await until(() => read().split('\n').length === n + 1);
    expect(read()).to.equal(Array.from({ length: n }, (_, i) => line(i)).join(''));
  });

  it('flushSync writes the waiting lines before it returns', () => {
    const { sink, read } = fileSink(1 << 20);
    sink.write(line(1));
    sink.write(line(2));
    sink.flushSync();
    expect(read()).to.equal(line(1) + line(2));
    expect(sink.pendingLines).to.equal(0);
  });

  it('drops lines beyond maxPendingChars and says how many once it writes again', async () => {
    const { sink, read } = fileSink(1 << 20, 100);
    expect(sink.write(line(1))).to.equal(true);
    expect(sink.write(line(2))).to.equal(true); // 96 characters wait: still under the bound
    expect(sink.write(line(3))).to.equal(false);
    expect(sink.write(line(4))).to.equal(false);
    sink.flushSync();
    const lines = read().trim().split('\n');
    expect(lines.slice(0, 2)).to.deep.equal([line(1).trim(), line(2).trim()]);
    const notice = JSON.parse(lines[2]!) as { level: number; msg: string };
    expect(notice.level).to.equal(40);
    expect(notice.msg).to.match(/^2 log lines dropped/);
  });

  describe('on a FIFO', () => {
    function fifo(): { reader: number; writer: number } {
      const path = join(dir, 'fifo');
      execFileSync('mkfifo', [path]);
      const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      fds.push(reader, writer);
      return { reader, writer };
    }

    function drain(fd: number, into: Buffer[]): void {
      const buf = Buffer.alloc(65536);
      for (;;) {
        let n: number;
        try {
          n = readSync(fd, buf, 0, buf.length, null);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return;
          throw e;
        }
        if (n === 0) return;
        into.push(Buffer.from(buf.subarray(0, n)));
      }
    }

    it('waits out a full pipe (EAGAIN) and delivers everything in order once it is read', async () => {
      const { reader, writer } = fifo();
      const sink = new LineSink(writer, { minChars: 1024, maxPendingChars: 1 << 24 });
      const n = 8000; // ~400 KB: far more than a pipe holds
      for (let i = 0; i < n; i++) sink.write(line(i));
      await sleep(100); // the pipe fills; the sink retries on EAGAIN
      const got: Buffer[] = [];
      const expected = Array.from({ length: n }, (_, i) => line(i)).join('');
      const total = Buffer.byteLength(expected);
      await until(() => {
        drain(reader, got);
        sink.flush();
        return got.reduce((s, b) => s + b.length, 0) >= total;
      }, 10_000);
      expect(Buffer.concat(got).toString('utf8')).to.equal(expected);
    });

    it('stops writing, without throwing, when nobody reads the pipe any more (EPIPE)', async () => {
      const { reader, writer } = fifo();
      closeSync(reader);
      fds.splice(fds.indexOf(reader), 1);
      const sink = new LineSink(writer, { minChars: 1, maxPendingChars: 1 << 20 });
      sink.write(line(1));
      await until(() => sink.write(line(2)) === false);
      expect(() => sink.flushSync()).not.to.throw();
    });
  });
});
