import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import { luhnValid } from '../../../guardrails/pii/detectors.js';
import PiiGuardrail from '../../../guardrails/pii/index.js';
import type { PiiParams } from '../../../guardrails/pii/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.pii', () => {
  let check: TestableCheck<PiiParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(PiiGuardrail, 'default.pii')));
  after(() => runtime.close());

  const redact = async (text: string, categories?: string[]) =>
    (await run(check, { redact: true, ...(categories ? { categories } : {}) }, input(text))).transformedText;

  it('validates params: known categories (default all), redact default false', () => {
    expect(validateParams(check, {}).value).to.deep.equal({ categories: ['email', 'credit_card', 'ssn', 'uk_nino', 'phone'], redact: false });
    expect(validateParams(check, { categories: ['dna'] }).issues[0]!.path).to.equal('categories.0');
    expect(validateParams(check, { categories: [] }).ok).to.equal(false);
  });

  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4111 1111 1111 1111')).to.equal(true);
    expect(luhnValid('4111-1111-1111-1112')).to.equal(false);
    expect(luhnValid('0000 0000 0000')).to.equal(false); // 12 digits: too short
  });

  it('fails without redact, reporting counts per category and never the values', async () => {
    const result = await run(check, {}, output('Write to ada@acme.com or call +1 (555) 123-4567.'));
    expect(result.verdict).to.equal(false);
    expect(result.transformedText).to.equal(undefined);
    expect(result.data).to.deep.equal({ detected: { email: 1, phone: 1 }, explanation: 'personal data found: email, phone' });
    expect(JSON.stringify(result.data)).not.to.include('ada@acme.com');
  });

  it('redacts with placeholders and passes', async () => {
    const result = await run(check, { redact: true }, input('card 4111 1111 1111 1111, ssn 123-45-6789, mail ada@acme.com'));
    expect(result.verdict).to.equal(true);
    expect(result.transformedText).to.equal('card [CREDIT_CARD], ssn [SSN], mail [EMAIL]');
    expect(result.data).to.deep.equal({ detected: { email: 1, credit_card: 1, ssn: 1 }, redacted: true });
  });

  it('reports null data when nothing is found', async () => {
    expect(await run(check, { redact: true }, input('nothing personal here'))).to.deep.equal({ verdict: true, data: null });
  });

  it('finds phone numbers in common national and international forms', async () => {
    expect(await redact('call 555-123-4567 or 020 7946 0958')).to.equal('call [PHONE] or [PHONE]');
    expect(await redact('+44 20 7946 0958')).to.equal('[PHONE]');
    expect(await redact('NI number AB 12 34 56 C')).to.equal('NI number [UK_NINO]');
  });

  it('leaves look-alikes alone: failed Luhn, invalid SSNs, dates, versions, bare numbers', async () => {
    for (const text of ['card 4111-1111-1111-1112', 'ssn 000-12-3456', 'on 2024-01-15', 'v1.2.3 at 10.0.0.1', 'order 12345678', 'total 1234567']) {
      const result = await run(check, {}, input(text));
      expect(result.verdict, text).to.equal(true);
    }
  });

  it('only looks for the selected categories', async () => {
    expect(await redact('ada@acme.com 123-45-6789', ['ssn'])).to.equal('ada@acme.com [SSN]');
    expect((await run(check, { categories: ['email'] }, input('123-45-6789'))).verdict).to.equal(true);
  });

  it('empty and unicode text', async () => {
    expect((await run(check, {}, input(''))).verdict).to.equal(true);
    expect(await redact('écrivez à zoé.dupont@exemple.fr 😀')).to.equal('écrivez à [EMAIL] 😀');
  });
});
