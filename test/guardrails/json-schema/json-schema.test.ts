import { expect } from 'chai';
import { extractJson, type Runtime } from '../../../core/index.js';
import JsonSchemaGuardrail from '../../../guardrails/json-schema/index.js';
import type { JsonSchemaParams } from '../../../guardrails/json-schema/params.js';
import { CTX, input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.jsonSchema', () => {
  let check: TestableCheck<JsonSchemaParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(JsonSchemaGuardrail, 'default.jsonSchema')));
  after(() => runtime.close());

  const person = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
    required: ['name', 'age'],
  };

  describe('params', () => {
    it('requires a schema object', () => {
      expect(validateParams(check, { schema: person }).ok).to.equal(true);
      expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'schema', rule: 'is required' });
      expect(validateParams(check, { schema: 'x' }).issues[0]).to.deep.equal({ path: 'schema', rule: 'must be a JSON Schema object' });
    });
    it('rejects a schema ajv cannot compile, at config time', () => {
      const parsed = validateParams(check, { schema: { type: 'no-such-type' } });
      expect(parsed.ok).to.equal(false);
      expect(parsed.issues[0]!.path).to.equal('schema');
      expect(parsed.issues[0]!.rule).to.match(/not a valid JSON Schema/);
    });
  });

  it('finds JSON as the whole text, in a fence, or wrapped in prose', () => {
    expect(extractJson('{"a":1}')).to.deep.equal([{ a: 1 }]);
    expect(extractJson('Here:\n```json\n{"a":1}\n```\nand\n```\n[2]\n```')).to.deep.equal([{ a: 1 }, [2]]);
    expect(extractJson('The result is {"a": {"b": 2}} as asked.')).to.deep.equal([{ a: { b: 2 } }]);
    expect(extractJson('no json here')).to.deep.equal([]);
    expect(extractJson('{broken')).to.deep.equal([]);
    expect(extractJson('42')).to.deep.equal([]);
  });

  it('passes valid JSON, fails invalid JSON with ajv errors', async () => {
    expect(await run(check, { schema: person }, output('{"name":"Ada","age":36}'))).to.deep.equal({ verdict: true, data: { jsonFound: true, valid: true } });
    const bad = await run(check, { schema: person }, output('```json\n{"name":"Ada","age":-1}\n```'));
    expect(bad.verdict).to.equal(false);
    const data = bad.data as { validationErrors: { path: string; message: string }[] };
    expect(data.validationErrors[0]).to.deep.equal({ path: '/age', message: 'must be >= 0' });
    expect(bad.data).to.include({ jsonFound: true, valid: false, explanation: 'the JSON is not valid against the schema' });
    expect(bad.data).not.to.have.property('not');
  });

  it('no JSON does not match: fails, and passes with not', async () => {
    const none = await run(check, { schema: person }, output('I cannot answer that.'));
    expect(none.verdict).to.equal(false);
    expect(none.data).to.deep.equal({ jsonFound: false, valid: false, validationErrors: [], explanation: 'no JSON found in the text' });
    expect((await run(check, { schema: person, not: true }, output('I cannot answer that.'))).verdict).to.equal(true);
    expect((await run(check, { schema: person, not: true }, output('{"name":"Ada","age":36}'))).verdict).to.equal(false);
  });

  it('understands 2020-12 schemas (prefixItems) and unicode values', async () => {
    const tuple = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect((await run(check, { schema: tuple }, output('["é😀", 1]'))).verdict).to.equal(true);
    expect((await run(check, { schema: tuple }, output('["a", 1, 2]'))).verdict).to.equal(false);
  });

  it('compiles a schema once, however many calls use it', async () => {
    const params = validateParams(check, { schema: person }).value;
    const started = performance.now();
    for (let i = 0; i < 2000; i++) await check.check(input('{"name":"x","age":1}'), params, CTX);
    // Compiling takes about a millisecond; 2000 compilations would take seconds.
    expect(performance.now() - started).to.be.below(500);
  });
});
