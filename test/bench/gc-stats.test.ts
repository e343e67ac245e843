/** The bench's `--gc` reading: V8's --trace-gc-nvp lines, from a given log offset, per request. */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gcStatsSince, logOffset } from './gc-stats.js';

// Shortened lines as V8 prints them (the fields read, among many others).
const scavenge = (allocated: number, survived: number, promoted: number, pause: number) =>
  `[1:0x1]  8606 ms: pause=${pause} mutator=62.0 gc=s reduce_memory=0 scavenge=2.64 allocated=${allocated} promoted=${promoted} new_space_survived=${survived} promotion_ratio=5.3%\n`;
const markCompact = (pause: number) => `[1:0x1]  9000 ms: pause=${pause} mutator=800.0 gc=mc reduce_memory=0 allocated=999999 promoted=888888\n`;

describe('bench: gc stats', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-gc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('sums the scavenges written since the offset, per request, with every GC\'s pause', () => {
    const log = join(dir, 'server.log');
    writeFileSync(log, scavenge(1_000_000, 10_000, 5_000, 9.9) + 'gw listening on http://127.0.0.1:1\n');
    const from = logOffset(log);
    appendFileSync(log, scavenge(4_000_000, 40_000, 20_000, 2.5) + '{"level":30,"msg":"request"}\n' + scavenge(2_000_000, 20_000, 10_000, 1.5) + markCompact(4));
    const stats = gcStatsSince(log, from, 1000);
    expect(stats).to.deep.equal({ allocated: 6000, survived: 60, promoted: 30, pauseUs: 8, scavenges: 2 });
  });

  it('reads nothing when nothing was written, and no division by zero requests', () => {
    const log = join(dir, 'server.log');
    writeFileSync(log, scavenge(1, 1, 1, 1));
    expect(gcStatsSince(log, logOffset(log), 10)).to.deep.equal({ allocated: 0, survived: 0, promoted: 0, pauseUs: 0, scavenges: 0 });
    expect(gcStatsSince(log, 0, 0).allocated).to.equal(0);
  });

  it('reads the lines of a real node process run with --trace-gc-nvp (line-buffered, as the bench starts it)', () => {
    const log = join(dir, 'child.log');
    const script = 'let keep = []; for (let i = 0; i < 2e6; i++) { keep.push({ i }); if (keep.length > 1000) keep = []; }';
    const out = execFileSync('stdbuf', ['-oL', process.execPath, '--trace-gc-nvp', '-e', script], { encoding: 'utf8' });
    writeFileSync(log, out);
    const stats = gcStatsSince(log, 0, 2e6);
    expect(stats.scavenges).to.be.greaterThan(0);
    // Each iteration allocates at least one small object (16+ bytes).
    expect(stats.allocated).to.be.greaterThan(10);
    expect(stats.pauseUs).to.be.greaterThan(0);
  });
});
