/** The conditional query language without the network: compile once, evaluate on fake contexts. */
import { expect } from 'chai';
import type { Issue, RequestContext } from '../../../../core/index.js';
import { compileQuery, type Predicate } from '../../../../plugins/strategies/conditional/query.js';
import { RegexCache } from '../../../../plugins/strategies/conditional/regex-cache.js';

const env = { limits: { maxDepth: 3, maxRegexLength: 50 }, regexes: new RegexCache(10) };

function compile(query: unknown): Predicate {
  const issues: Issue[] = [];
  const predicate = compileQuery(query, 'query', env, issues);
  expect(issues).to.deep.equal([]);
  return predicate!;
}

function issuesOf(query: unknown): Issue[] {
  const issues: Issue[] = [];
  expect(compileQuery(query, 'query', env, issues)).to.equal(undefined);
  return issues;
}

interface Request {
  metadata?: Record<string, string>;
  body?: Record<string, unknown>;
  path?: string;
}

const ctxOf = (r: Request) => ({ metadata: r.metadata ?? {}, body: r.body ?? {}, request: { path: r.path ?? '/v1/chat/completions' } }) as unknown as RequestContext;

/** Asserts which of the requests the query matches. */
function matches(query: unknown, yes: Request[], no: Request[]): void {
  const predicate = compile(query);
  for (const r of yes) expect(predicate(ctxOf(r)), `${JSON.stringify(query)} on ${JSON.stringify(r)}`).to.equal(true);
  for (const r of no) expect(predicate(ctxOf(r)), `${JSON.stringify(query)} on ${JSON.stringify(r)}`).to.equal(false);
}

const tier = (t: string) => ({ metadata: { tier: t } });
const level = (l: string) => ({ metadata: { level: l } });

describe('strategy.conditional queries', () => {
  describe('operators', () => {
    it('a bare value means strict equality', () => {
      matches({ 'metadata.tier': 'pro' }, [tier('pro')], [tier('free'), tier('Pro'), {}]);
      matches({ 'params.temperature': 0 }, [{ body: { temperature: 0 } }], [{ body: { temperature: '0' } }, {}]);
      matches({ 'params.stream': true }, [{ body: { stream: true } }], [{ body: { stream: 'true' } }]);
      matches({ 'params.user': null }, [{ body: { user: null } }], [{}]);
    });

    it('$eq and $ne', () => {
      matches({ 'metadata.tier': { $eq: 'pro' } }, [tier('pro')], [tier('free')]);
      matches({ 'metadata.tier': { $ne: 'pro' } }, [tier('free'), {}], [tier('pro')]);
    });

    it('$gt $gte $lt $lte compare numbers and numeric strings; anything else never matches', () => {
      matches({ 'metadata.level': { $gt: 2 } }, [level('3'), level('2.5'), level(' 10 ')], [level('2'), level('1'), level('x'), level(''), {}]);
      matches({ 'metadata.level': { $gte: 2 } }, [level('2'), level('3')], [level('1.99')]);
      matches({ 'metadata.level': { $lt: 2 } }, [level('1'), level('-5')], [level('2'), level('abc')]);
      matches({ 'metadata.level': { $lte: 2 } }, [level('2'), level('0')], [level('2.01')]);
      matches({ 'params.max_tokens': { $gt: 100 } }, [{ body: { max_tokens: 101 } }], [{ body: { max_tokens: 100 } }, { body: { max_tokens: [200] } }, { body: { max_tokens: true } }]);
    });

    it('$in and $nin', () => {
      matches({ 'params.model': { $in: ['gpt-4o', 'gpt-4.1'] } }, [{ body: { model: 'gpt-4o' } }], [{ body: { model: 'gpt-4o-mini' } }, {}]);
      matches({ 'params.model': { $nin: ['gpt-4o'] } }, [{ body: { model: 'o3' } }, {}], [{ body: { model: 'gpt-4o' } }]);
      matches({ 'params.n': { $in: [1, 2] } }, [{ body: { n: 2 } }], [{ body: { n: '2' } }]);
    });

    it('$regex on strings (numbers and booleans as text; other values never match)', () => {
      matches({ 'params.model': { $regex: '^gpt-4' } }, [{ body: { model: 'gpt-4o' } }], [{ body: { model: 'o3-gpt-4' } }, {}]);
      matches({ 'params.seed': { $regex: '^4' } }, [{ body: { seed: 42 } }], [{ body: { seed: 24 } }, { body: { seed: { a: 4 } } }]);
    });

    it('several operators on one key all apply', () => {
      matches({ 'metadata.level': { $gte: 2, $lt: 5, $ne: '3' } }, [level('2'), level('4')], [level('1'), level('3'), level('5')]);
    });
  });

  describe('keys and combinations', () => {
    it('several keys all apply', () => {
      matches({ 'metadata.tier': 'pro', 'params.model': 'gpt-4o' }, [{ metadata: { tier: 'pro' }, body: { model: 'gpt-4o' } }], [tier('pro'), { metadata: { tier: 'free' }, body: { model: 'gpt-4o' } }]);
    });

    it('$or, $and, nested, and beside plain keys (everything ANDs)', () => {
      matches({ $or: [{ 'metadata.tier': 'pro' }, { 'metadata.tier': 'team' }] }, [tier('pro'), tier('team')], [tier('free')]);
      matches({ $and: [{ 'metadata.level': { $gt: 1 } }, { 'metadata.level': { $lt: 3 } }] }, [level('2')], [level('3')]);
      const nested = { $or: [{ $and: [{ 'metadata.tier': 'pro' }, { 'params.model': 'gpt-4o' }] }, { 'metadata.tier': 'enterprise' }] };
      matches(nested, [{ metadata: { tier: 'pro' }, body: { model: 'gpt-4o' } }, tier('enterprise')], [tier('pro'), { metadata: { tier: 'free' }, body: { model: 'gpt-4o' } }]);
      matches({ 'params.model': 'gpt-4o', $or: [{ 'metadata.tier': 'pro' }, { 'metadata.tier': 'team' }] }, [{ metadata: { tier: 'team' }, body: { model: 'gpt-4o' } }], [tier('team')]);
    });

    it('an empty query always matches', () => {
      matches({}, [{}, tier('x')], []);
    });

    it('params paths reach nested fields and array indices, never the prototype', () => {
      const body = { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], response_format: { type: 'json_object' } };
      matches({ 'params.messages.0.role': 'system', 'params.messages.1.content': 'hi' }, [{ body }], [{ body: { messages: [{ role: 'user' }] } }, { body: { messages: 'x' } }, {}]);
      matches({ 'params.response_format.type': { $in: ['json_object', 'json_schema'] } }, [{ body }], [{}]);
      matches({ 'params.messages.length': 2 }, [{ body }], []);
      matches({ 'params.constructor': { $ne: null } }, [{ body }], []); // absent, so $ne holds
      matches({ 'params.toString': { $regex: '.' } }, [], [{ body }]);
    });

    it('metadata is flat: everything after "metadata." is one key, dots included', () => {
      matches({ 'metadata.app.version': '2' }, [{ metadata: { 'app.version': '2' } }], [{ metadata: { app: '2' } }]);
      matches({ 'metadata.hasOwnProperty': { $regex: '.' } }, [], [{}]);
    });

    it('url.pathname is the request path', () => {
      matches({ 'url.pathname': { $regex: '/completions$' } }, [{ path: '/v1/completions' }, { path: '/v1/chat/completions' }], [{ path: '/v1/embeddings' }]);
      matches({ 'url.pathname': '/v1/embeddings' }, [{ path: '/v1/embeddings' }], [{}]);
    });
  });

  describe('invalid queries', () => {
    const rejects = (query: unknown, path: string, rule: string | RegExp) => {
      const [issue] = issuesOf(query);
      expect(issue!.path).to.equal(path);
      if (typeof rule === 'string') expect(issue!.rule).to.equal(rule);
      else expect(issue!.rule).to.match(rule);
    };

    it('unknown operators, on a field and at the top', () => {
      rejects({ 'metadata.tier': { $exists: true } }, 'query.metadata.tier.$exists', /^unknown operator \(field operators: \$eq, \$ne, \$gt, \$gte, \$lt, \$lte, \$in, \$nin, \$regex/);
      rejects({ 'metadata.tier': { $or: ['a'] } }, 'query.metadata.tier.$or', /^unknown operator/);
      rejects({ 'metadata.tier': { pro: true } }, 'query.metadata.tier.pro', /^unknown operator/);
      rejects({ $not: { 'metadata.tier': 'pro' } }, 'query.$not', /^unknown operator/);
    });

    it('operands of the wrong kind', () => {
      rejects({ 'metadata.tier': { $in: 'pro' } }, 'query.metadata.tier.$in', 'must be an array of strings, numbers, booleans or null');
      rejects({ 'metadata.tier': { $nin: [['a']] } }, 'query.metadata.tier.$nin', 'must be an array of strings, numbers, booleans or null');
      rejects({ 'metadata.level': { $gt: '2' } }, 'query.metadata.level.$gt', 'must be a number');
      rejects({ 'metadata.level': { $lte: null } }, 'query.metadata.level.$lte', 'must be a number');
      rejects({ 'metadata.tier': { $eq: ['a'] } }, 'query.metadata.tier.$eq', 'must be a string, number, boolean or null');
      rejects({ 'metadata.tier': { $ne: {} } }, 'query.metadata.tier.$ne', 'must be a string, number, boolean or null');
      rejects({ 'metadata.tier': ['a', 'b'] }, 'query.metadata.tier', /use \$in/);
      rejects({ 'metadata.tier': {} }, 'query.metadata.tier', 'must name at least one operator');
    });

    it('$regex that is not a valid, short enough regular expression', () => {
      rejects({ 'metadata.tier': { $regex: '(' } }, 'query.metadata.tier.$regex', /^must be a valid regular expression \(.+\)$/);
      rejects({ 'metadata.tier': { $regex: 5 } }, 'query.metadata.tier.$regex', 'must be a string (a regular expression)');
      rejects({ 'metadata.tier': { $regex: 'a'.repeat(51) } }, 'query.metadata.tier.$regex', 'must be at most 50 characters');
    });

    it('$and / $or that are not non-empty arrays of queries, or nest too deep', () => {
      rejects({ $and: [] }, 'query.$and', 'must be a non-empty array of queries');
      rejects({ $or: { 'metadata.tier': 'pro' } }, 'query.$or', 'must be a non-empty array of queries');
      rejects({ $or: ['pro'] }, 'query.$or.0', 'must be an object (a query)');
      rejects({ $and: [{ $or: [{ 'metadata.tier': { $regex: '[' } }] }] }, 'query.$and.0.$or.0.metadata.tier.$regex', /^must be a valid regular expression/);
      compile({ $or: [{ $or: [{ $or: [{}] }] }] });
      rejects({ $or: [{ $or: [{ $or: [{ $or: [{}] }] }] }] }, 'query.$or.0.$or.0.$or.0.$or', 'nests $and/$or deeper than 3 levels');
    });

    it('keys outside metadata, params and url.pathname', () => {
      rejects({ tier: 'pro' }, 'query.tier', 'must be a path starting with metadata.<key>, params.<path> or url.pathname');
      rejects({ metadata: 'x' }, 'query.metadata', /^must be a path starting with/);
      rejects({ 'params.': 'x' }, 'query.params.', /^must be a dot path below params/);
      rejects({ 'params.messages..role': 'x' }, 'query.params.messages..role', /^must be a dot path below params/);
      rejects({ 'url.host': 'x' }, 'query.url.host', 'must be url.pathname (the only url field)');
    });

    it('reports every problem of a query', () => {
      expect(issuesOf({ 'metadata.a': { $in: 1 }, 'metadata.b': { $gt: 'x' } }).map((i) => i.path)).to.deep.equal(['query.metadata.a.$in', 'query.metadata.b.$gt']);
    });
  });

  describe('regex cache', () => {
    it('compiles a pattern once and keeps at most its size', () => {
      const cache = new RegexCache(2);
      const a = cache.get('^a');
      expect(cache.get('^a')).to.equal(a);
      cache.get('^b');
      cache.get('^c');
      expect(cache.get('^a')).to.not.equal(a);
      expect(cache.get('(')).to.be.a('string');
    });
  });
});
