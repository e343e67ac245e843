/** accessLine writes the line pino would write for the same fields, to pino's destination. */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { accessLine, createLogger } from '../../core/index.js';

function sink(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
}

describe('accessLine', () => {
  it('matches pino\'s line for the same fields (level, time, fields, msg), leaving out undefined ones', () => {
    const lines: string[] = [];
    const logger = createLogger('info', sink(lines));
    const fields = { traceId: 'a"b\\c', method: 'POST', status: 200, latencyMs: 1.25, retries: undefined, ok: true };
    accessLine(logger, 'info', 'request')!(fields);
    logger.info(fields, 'request');
    logger.flush();
    expect(lines).to.have.length(2);
    const [ours, pinos] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(ours!)).to.deep.equal(Object.keys(pinos!));
    expect({ ...ours, time: 0 }).to.deep.equal({ ...pinos, time: 0 });
    expect(new Date(ours!['time'] as string).toISOString()).to.equal(ours!['time']);
  });

  it('writes no number it cannot represent, and is undefined below the logger level', () => {
    const lines: string[] = [];
    const logger = createLogger('info', sink(lines));
    accessLine(logger, 'info', 'request')!({ latencyMs: Number.NaN });
    logger.flush();
    expect(JSON.parse(lines[0]!)['latencyMs']).to.equal(null);
    expect(accessLine(logger, 'debug', 'request')).to.equal(undefined);
  });
});
