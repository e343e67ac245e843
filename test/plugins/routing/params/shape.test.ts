/** Unit tests of the body shaping: order, dot paths, copy-on-write. */
import { expect } from 'chai';
import type { ConfigNode } from '../../../../core/index.js';
import { shapeBody } from '../../../../plugins/routing/params/shape.js';
import { dropPathRule, dropPlan } from '../../../../plugins/routing/params/drop-paths.js';

type Body = Record<string, unknown>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Shapes a frozen body with a frozen config: any write to either throws (ESM is strict mode). */
function shape(body: Body, target: ConfigNode): Body {
  return shapeBody(deepFreeze(structuredClone(body)), deepFreeze(structuredClone(target)));
}

const base = (): Body => ({
  model: 'gpt-4o-mini',
  temperature: 0.7,
  messages: [
    { role: 'system', content: 'be brief', name: 'sys' },
    { role: 'user', content: 'hi', name: 'alice' },
  ],
  tools: [
    { type: 'function', function: { name: 'a', parameters: {} } },
    { type: 'function', function: { name: 'b', parameters: {} } },
    { type: 'function', function: { name: 'c', parameters: {} } },
  ],
  response_format: { type: 'json_schema', json_schema: { name: 's', strict: true, schema: {} } },
  logit_bias: { '50256': -100 },
});

describe('params: shapeBody', () => {
  describe('order', () => {
    it('override_params beats the client value', () => {
      const out = shape(base(), { override_params: { temperature: 0.1, seed: 7 } });
      expect(out['temperature']).to.equal(0.1);
      expect(out['seed']).to.equal(7);
    });

    it('default_params fills only absent keys (a client null counts as sent)', () => {
      const out = shape({ ...base(), top_p: null }, { default_params: { temperature: 0.2, max_tokens: 64, top_p: 0.5 } });
      expect(out['temperature']).to.equal(0.7);
      expect(out['max_tokens']).to.equal(64);
      expect(out['top_p']).to.equal(null);
    });

    it('override runs before default: a key both set keeps the override', () => {
      const out = shape(base(), { override_params: { seed: 1 }, default_params: { seed: 2 } });
      expect(out['seed']).to.equal(1);
    });

    it('drop runs last: dropping a key that override or default set removes it', () => {
      const out = shape(base(), {
        override_params: { temperature: 0.1, seed: 3 },
        default_params: { max_tokens: 10 },
        drop_params: ['temperature', 'max_tokens'],
      });
      expect(out).to.not.have.property('temperature');
      expect(out).to.not.have.property('max_tokens');
      expect(out['seed']).to.equal(3);
    });

    it('override_params replaces a nested object whole (no deep merge)', () => {
      const out = shape(base(), { override_params: { response_format: { type: 'json_object' } } });
      expect(out['response_format']).to.deep.equal({ type: 'json_object' });
    });
  });

  describe('drop_params dot paths', () => {
    it('drops nested keys', () => {
      const out = shape(base(), { drop_params: ['response_format.json_schema.strict', 'messages.1.name'] });
      expect(out['response_format']).to.deep.equal({ type: 'json_schema', json_schema: { name: 's', schema: {} } });
      expect((out['messages'] as Body[])[1]).to.deep.equal({ role: 'user', content: 'hi' });
      expect((out['messages'] as Body[])[0]).to.have.property('name', 'sys');
    });

    it('removes an array element by index', () => {
      const out = shape(base(), { drop_params: ['tools.1'] });
      expect((out['tools'] as { function: { name: string } }[]).map((t) => t.function.name)).to.deep.equal(['a', 'c']);
    });

    it('indices refer to the body before any drop, in any listed order', () => {
      for (const drop of [['tools.0', 'tools.2'], ['tools.2', 'tools.0']]) {
        const out = shape(base(), { drop_params: drop });
        expect((out['tools'] as { function: { name: string } }[]).map((t) => t.function.name)).to.deep.equal(['b']);
      }
      const out = shape(base(), { drop_params: ['messages.0', 'messages.1.name'] });
      expect(out['messages']).to.deep.equal([{ role: 'user', content: 'hi' }]);
    });

    it('sorts indices as numbers, not strings', () => {
      const body = { model: 'm', stop: Array.from({ length: 12 }, (_, i) => `s${i}`) };
      const out = shape(body, { drop_params: ['stop.2', 'stop.10'] });
      expect(out['stop']).to.deep.equal(['s0', 's1', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's11']);
    });

    it('keeps index order when keys that look almost numeric sit beside indices', () => {
      const body = { model: 'm', stop: Array.from({ length: 12 }, (_, i) => `s${i}`) };
      for (const drop of [['stop.9', 'stop.5a', 'stop.10'], ['stop.10', 'stop.9', 'stop.5a'], ['stop.5a', 'stop.10', 'stop.9']]) {
        const out = shape(body, { drop_params: drop });
        expect(out['stop'], drop.join()).to.deep.equal(['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's11']);
      }
    });

    it('a numeric segment on an object is a key', () => {
      const out = shape(base(), { drop_params: ['logit_bias.50256'] });
      expect(out['logit_bias']).to.deep.equal({});
    });

    it('out-of-range indices, missing keys and paths through primitives are no-ops that copy nothing', () => {
      const body = deepFreeze(base());
      const paths = ['tools.3', 'tools.-1', 'tools.01', 'tools.x', 'nope', 'nope.deeper', 'model.length', 'temperature.0', 'messages.5.name', 'response_format.json_schema.strict.x'];
      for (const p of paths) {
        expect(shapeBody(body, { drop_params: [p] }), p).to.equal(body);
      }
    });

    it('never walks into prototypes', () => {
      const body = deepFreeze(base());
      for (const p of ['__proto__', '__proto__.toString', 'constructor', 'constructor.prototype', 'messages.length']) {
        expect(shapeBody(body, { drop_params: [p] }), p).to.equal(body);
      }
      expect(Object.prototype).to.have.property('toString');
    });
  });

  describe('copy-on-write', () => {
    it('returns the same object when no setting applies (zero cost)', () => {
      const body = deepFreeze(base());
      expect(shapeBody(body, {})).to.equal(body);
      expect(shapeBody(body, { default_params: { temperature: 1 } })).to.equal(body);
      expect(shapeBody(body, { drop_params: [] })).to.equal(body);
    });

    it('never mutates the body or the config, and shares untouched branches', () => {
      const body = deepFreeze(base());
      const target = deepFreeze<ConfigNode>({
        override_params: { response_format: { type: 'json_schema', json_schema: { strict: true, name: 'x' } } },
        drop_params: ['response_format.json_schema.strict', 'messages.0.name', 'tools.0'],
      });
      const out = shapeBody(body, target); // frozen inputs: a write would throw
      expect(out).to.not.equal(body);
      expect(out['response_format']).to.deep.equal({ type: 'json_schema', json_schema: { name: 'x' } });
      expect((out['messages'] as Body[])[0]).to.not.have.property('name');
      expect((out['messages'] as Body[])[1]).to.equal((body['messages'] as Body[])[1]);
      expect(out['logit_bias']).to.equal(body['logit_bias']);
      expect((out['tools'] as unknown[]).length).to.equal(2);
      expect((body['tools'] as unknown[]).length).to.equal(3);
    });

    it('copies a container shared by several paths once', () => {
      const out = shape(base(), { drop_params: ['messages.0.name', 'messages.1.name', 'messages.1.content'] });
      expect(out['messages']).to.deep.equal([{ role: 'system', content: 'be brief' }, { role: 'user' }]);
    });

    it('keeps __proto__ a plain key (override and default cannot swap the prototype)', () => {
      const override = JSON.parse('{"__proto__": {"polluted": true}}') as Body;
      const out = shapeBody(deepFreeze(base()), { override_params: override, default_params: JSON.parse('{"__proto__": 1}') as Body });
      expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
      expect(Object.hasOwn(out, '__proto__')).to.equal(true);
      expect((out as { polluted?: boolean }).polluted).to.equal(undefined);
      expect(JSON.parse(JSON.stringify(out))['__proto__']).to.deep.equal({ polluted: true });
    });
  });

  describe('drop path rules', () => {
    it('refuses empty segments and "stream"', () => {
      for (const p of ['a..b', '.a', 'a.', '.', '']) expect(dropPathRule(p), p).to.match(/empty segments/);
      expect(dropPathRule('stream')).to.match(/cannot drop "stream"/);
      for (const p of ['model', 'messages.0.name', 'stream_options', 'a.b.c.0']) expect(dropPathRule(p), p).to.equal(undefined);
    });

    it('parses a list once (cached by identity)', () => {
      const list = Object.freeze(['tools.1', 'tools.10']);
      expect(dropPlan(list)).to.equal(dropPlan(list));
      expect(dropPlan(list).map((p) => p.keys.join('.'))).to.deep.equal(['tools.10', 'tools.1']);
    });
  });
});
