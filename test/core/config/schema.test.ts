import { expect } from 'chai';
import { Value, type TSchema } from '../../../core/schema.js';
import type { Issue } from '../../../core/schema.js';
import { builtinConfigKeys } from '../../helpers/config-keys.js';

/** The route config as a gateway with every built-in plugin assembles it. */
const keys = await builtinConfigKeys();
const checkConfig = (value: unknown): Issue[] => keys.check(value);
const ConfigSchema = keys.schema;

type Cfg = Record<string, unknown>;

const BASE: Cfg = { provider: 'openai', api_key: 'sk-test' };
const with_ = (extra: Cfg): Cfg => ({ ...BASE, ...extra });

function expectValid(config: unknown): void {
  expect(checkConfig(config), JSON.stringify(config)).to.deep.equal([]);
}

/** The first issue, as the kernel reports it. */
function expectIssue(config: unknown, path: string, rule?: string | RegExp): Issue {
  const issues = checkConfig(config);
  expect(issues, JSON.stringify(config)).to.not.be.empty;
  const first = issues[0]!;
  expect(first.path, JSON.stringify(issues)).to.equal(path);
  if (typeof rule === 'string') expect(first.rule).to.equal(rule);
  else if (rule) expect(first.rule).to.match(rule);
  return first;
}

/** A loadbalance node over the given targets. */
const lb = (...targets: Cfg[]): Cfg => ({ strategy: { mode: 'loadbalance' }, targets });

describe('the config check as every built-in assembles it', () => {
  describe('root', () => {
    for (const value of [null, undefined, 'x', 42, true, [], [BASE]]) {
      it(`rejects ${JSON.stringify(value)} as not an object`, () => {
        expect(checkConfig(value)).to.deep.equal([{ path: '', rule: 'must be a JSON object' }]);
      });
    }

    it('accepts provider + api_key', () => expectValid(BASE));

    it('rejects unknown root keys', () => {
      expectIssue(with_({ foo: 1 }), 'foo', 'is not an allowed key');
      expectIssue(with_({ mode: 'single' }), 'mode', 'is not an allowed key');
    });

    it('treats an undefined value as an absent key', () => {
      expectValid(with_({ name: undefined, bogus: undefined }));
      expectIssue({ provider: 'openai', api_key: undefined }, '', /^provider "openai" needs/);
    });

    it('returns a fresh, appendable array for a valid config', () => {
      const a = checkConfig(BASE);
      const b = checkConfig(BASE);
      expect(a).to.not.equal(b);
      a.push({ path: 'x', rule: 'y' });
      expect(checkConfig(BASE)).to.deep.equal([]);
    });
  });

  describe('key groups', () => {
    const groups: Record<string, Cfg> = {
      'provider+api_key': { provider: 'openai', api_key: 'k' },
      'provider+custom_host': { provider: 'openai', custom_host: 'http://localhost:11434/v1' },
      virtual_key: { virtual_key: 'vk-1' },
      'strategy+targets': lb({ provider: '@a' }),
      cache: { cache: { mode: 'simple' } },
      retry: { retry: { attempts: 2 } },
      prompt_id: { prompt_id: 'p-1' },
      forward_headers: { forward_headers: ['x-user'] },
      request_timeout: { request_timeout: 1000 },
      'cloudA keys': { provider: 'bedrock', cloudA_access_key_id: 'AK', cloudA_secret_access_key: 'SK' },
      'cloudC region+service account': { provider: 'vertex-ai', cloudC_region: 'eu', cloudC_service_account_json: { type: 'service_account' } },
      'cloudC region+project': { provider: 'vertex-ai', cloudC_region: 'eu', cloudC_project_id: 'p' },
      'cloudB deployment': { provider: 'azure-openai', cloudB_deployment_name: 'd', cloudB_deployment_type: 'managed', cloudB_region: 'eu', cloudB_api_version: '2024-01-01' },
      'cloudB endpoint': { provider: 'azure-openai', cloudB_endpoint_name: 'e', cloudB_deployment_type: 'serverless' },
      after_request_hooks: { after_request_hooks: [{ id: 'h' }] },
      before_request_hooks: { before_request_hooks: [{ id: 'h' }] },
      input_guardrails: { input_guardrails: ['g-1'] },
      output_guardrails: { output_guardrails: ['g-1'] },
      passthrough: { passthrough: true },
      'passthrough false (present)': { passthrough: false },
      'provider @slug alone': { provider: '@openai-prod' },
      'provider+Authorization': { provider: 'azure-openai', Authorization: 'Bearer abc' },
    };
    for (const [name, config] of Object.entries(groups)) {
      it(`accepts the group ${name} alone`, () => expectValid(config));
    }

    it('rejects an empty config, listing what is needed', () => {
      const issue = expectIssue({}, '');
      expect(issue.rule).to.match(/^needs provider with api_key/);
      for (const word of ['virtual_key', '"@slug"', 'strategy with targets', 'cache', 'retry', 'request_timeout', 'prompt_id', 'forward_headers', 'passthrough', 'hooks', 'guardrails']) {
        expect(issue.rule).to.include(word);
      }
    });

    it('rejects keys that form no group (name, weight, override_params alone)', () => {
      expectIssue({ name: 'x' }, '', /^needs provider/);
      expectIssue({ weight: 1, override_params: { model: 'm' } }, '', /^needs provider/);
    });

    it('rejects a plain provider name without credentials', () => {
      expectIssue({ provider: 'openai' }, '', 'provider "openai" needs api_key, custom_host, Authorization or cloud credentials (or use a provider "@slug" or virtual_key)');
    });

    it('does not take a bare "@" for a slug', () => {
      expectIssue({ provider: '@' }, '', /^provider "@" needs/);
    });

    it('names what an incomplete cloud group lacks', () => {
      expectIssue({ provider: 'bedrock', cloudA_access_key_id: 'AK' }, '', 'has provider, cloudA_access_key_id but also needs cloudA_secret_access_key');
      expectIssue({ cloudA_access_key_id: 'AK', cloudA_secret_access_key: 'SK' }, '', 'has cloudA_access_key_id, cloudA_secret_access_key but also needs provider');
      expectIssue({ provider: 'vertex-ai', cloudC_region: 'eu' }, '', /^has provider, cloudC_region but also needs cloudC_(service_account_json|project_id)$/);
      // A tie goes to the group that lacks fewer keys (the endpoint group).
      expectIssue({ provider: 'azure-openai', cloudB_deployment_type: 'managed' }, '', 'has provider, cloudB_deployment_type but also needs cloudB_endpoint_name');
      expectIssue({ provider: 'azure-openai', cloudB_deployment_name: 'd', cloudB_deployment_type: 'managed', cloudB_region: 'eu' }, '', 'has provider, cloudB_deployment_name, cloudB_deployment_type, cloudB_region but also needs cloudB_api_version');
    });

    it('names strategy as the missing half of targets', () => {
      expectIssue({ targets: [BASE] }, '', 'has targets but also needs strategy');
    });

    it('does not require a key group (nor api_key) in targets', () => {
      expectValid(lb({ name: 'a' }, { provider: 'openai' }, { weight: 2 }));
    });

    it('reports field problems before a missing group', () => {
      const issues = checkConfig({ name: 5 });
      expect(issues[0]).to.deep.equal({ path: 'name', rule: 'must be a string' });
      expect(issues[issues.length - 1]!.path).to.equal('');
    });
  });

  describe('field types', () => {
    // [field, good value]
    const good: [string, unknown][] = [
      ['name', 'primary'],
      ['api_key', 'k'],
      ['virtual_key', 'vk'],
      ['custom_host', 'https://models.internal:8443/v1?x=1'],
      ['custom_host', 'http://127.0.0.1'],
      ['strict_compat_compliance', false],
      ['override_params', { model: 'gpt-4o', temperature: 0.2 }],
      ['default_params', { max_tokens: 100 }],
      ['drop_params', ['metadata.user', 'messages.0.name']],
      ['prompt_id', 'pp-1'],
      ['request_timeout', 1],
      ['weight', 0],
      ['weight', 0.5],
      ['on_status_codes', [429, 500, 599, 100]],
      ['passthrough', false],
      ['forward_headers', ['x-a', 'authorization']],
      ['resource_name', 'r'],
      ['deployment_id', 'd'],
      ['api_version', '2024-02-01'],
      ['cloudA_region', 'us-east-1'],
      ['cloudA_session_token', 't'],
      ['cloudB_resource_name', 'r'],
      ['cloudB_deployment_id', 'd'],
      ['cloudB_model_name', 'm'],
      ['cloudB_deployment_type', 'serverless'],
      ['cloudB_deployment_type', 'managed'],
      ['cloudC_service_account_json', {}],
      ['vendorD_organization', 'org'],
      ['vendorD_project', 'proj'],
      ['Authorization', 'Bearer sk-abc'],
    ];
    for (const [field, value] of good) {
      it(`accepts ${field} = ${JSON.stringify(value)}`, () => expectValid(with_({ [field]: value })));
    }

    // [field, bad value, path, rule]
    const bad: [string, unknown, string, string][] = [
      ['strategy', 'fallback', 'strategy', 'must be an object'],
      ['targets', {}, 'targets', 'must be an array'],
      ['targets', [], 'targets', 'must have at least 1 item(s)'],
      ['targets', ['openai'], 'targets.0', 'must be an object'],
      ['provider', '', 'provider', 'must be a non-empty string'],
      ['provider', 7, 'provider', 'must be a non-empty string'],
      ['api_key', 1, 'api_key', 'must be a string'],
      ['virtual_key', null, 'virtual_key', 'must be a string'],
      ['custom_host', 'localhost:8080', 'custom_host', 'must be an http(s) URL'],
      ['custom_host', 'ftp://host', 'custom_host', 'must be an http(s) URL'],
      ['custom_host', 'http://', 'custom_host', 'must be an http(s) URL'],
      ['custom_host', 'http://a b', 'custom_host', 'must be an http(s) URL'],
      ['name', 1, 'name', 'must be a string'],
      ['strict_compat_compliance', 'false', 'strict_compat_compliance', 'must be a boolean'],
      ['override_params', [], 'override_params', 'must be an object'],
      ['default_params', 'x', 'default_params', 'must be an object'],
      ['drop_params', 'a', 'drop_params', 'must be an array'],
      ['drop_params', ['a', ''], 'drop_params.1', 'must be a non-empty string'],
      ['prompt_id', 1, 'prompt_id', 'must be a string'],
      ['request_timeout', 0, 'request_timeout', 'must be >= 1'],
      ['request_timeout', 1.5, 'request_timeout', 'must be an integer'],
      ['request_timeout', '1000', 'request_timeout', 'must be an integer'],
      ['request_timeout', 3_600_001, 'request_timeout', 'must be <= 3600000'],
      ['request_timeout', 2 ** 53, 'request_timeout', 'must be <= 3600000'],
      ['cache', { mode: 'simple', max_age: 2 ** 53 }, 'cache.max_age', 'must be <= 315360000'],
      ['retry', { attempts: 2 ** 53 }, 'retry.attempts', 'must be <= 10'],
      ['cb_config', { failure_threshold: 1e300, cooldown_interval: 30000 }, 'cb_config.failure_threshold', 'must be <= 1000000'],
      ['cb_config', { failure_threshold: 1, cooldown_interval: 2 ** 53 }, 'cb_config.cooldown_interval', 'must be <= 86400000'],
      ['weight', 1e300, 'weight', 'must be <= 1000000'],
      ['cache', 'simple', 'cache', 'must be an object'],
      ['retry', 3, 'retry', 'must be an object'],
      ['cb_config', true, 'cb_config', 'must be an object'],
      ['weight', -1, 'weight', 'must be >= 0'],
      ['weight', '1', 'weight', 'must be a number'],
      ['on_status_codes', 500, 'on_status_codes', 'must be an array'],
      ['on_status_codes', [500, 99], 'on_status_codes.1', 'must be >= 100'],
      ['on_status_codes', [600], 'on_status_codes.0', 'must be <= 599'],
      ['on_status_codes', [500.5], 'on_status_codes.0', 'must be an integer'],
      ['passthrough', 'true', 'passthrough', 'must be a boolean'],
      ['forward_headers', 'x-a', 'forward_headers', 'must be an array'],
      ['forward_headers', [''], 'forward_headers.0', 'must be a non-empty string'],
      ['resource_name', 1, 'resource_name', 'must be a string'],
      ['deployment_id', 1, 'deployment_id', 'must be a string'],
      ['api_version', 1, 'api_version', 'must be a string'],
      ['deployments', {}, 'deployments', 'must be an array'],
      ['before_request_hooks', {}, 'before_request_hooks', 'must be an array'],
      ['after_request_hooks', 'h', 'after_request_hooks', 'must be an array'],
      ['input_guardrails', 'g', 'input_guardrails', 'must be an array'],
      ['output_guardrails', {}, 'output_guardrails', 'must be an array'],
      ['cloudA_access_key_id', 1, 'cloudA_access_key_id', 'must be a string'],
      ['cloudA_secret_access_key', 1, 'cloudA_secret_access_key', 'must be a string'],
      ['cloudA_region', 1, 'cloudA_region', 'must be a string'],
      ['cloudA_session_token', 1, 'cloudA_session_token', 'must be a string'],
      ['cloudB_region', 1, 'cloudB_region', 'must be a string'],
      ['cloudB_deployment_name', 1, 'cloudB_deployment_name', 'must be a string'],
      ['cloudB_deployment_type', 'dedicated', 'cloudB_deployment_type', 'must be one of "serverless", "managed"'],
      ['cloudB_endpoint_name', 1, 'cloudB_endpoint_name', 'must be a string'],
      ['cloudB_api_version', 1, 'cloudB_api_version', 'must be a string'],
      ['cloudB_resource_name', 1, 'cloudB_resource_name', 'must be a string'],
      ['cloudB_deployment_id', 1, 'cloudB_deployment_id', 'must be a string'],
      ['cloudB_model_name', 1, 'cloudB_model_name', 'must be a string'],
      ['Authorization', 'sk-abc', 'Authorization', 'must start with "Bearer "'],
      ['Authorization', 'Bearer ', 'Authorization', 'must start with "Bearer "'],
      ['cloudC_project_id', 1, 'cloudC_project_id', 'must be a string'],
      ['cloudC_region', 1, 'cloudC_region', 'must be a string'],
      ['cloudC_service_account_json', '{"type":"service_account"}', 'cloudC_service_account_json', 'must be an object'],
      ['vendorD_organization', 1, 'vendorD_organization', 'must be a string'],
      ['vendorD_project', 1, 'vendorD_project', 'must be a string'],
    ];
    for (const [field, value, path, rule] of bad) {
      it(`rejects ${field} = ${JSON.stringify(value)}: ${path}: ${rule}`, () => expectIssue(with_({ [field]: value }), path, rule));
    }
  });

  describe('cache', () => {
    it('accepts simple and semantic, with or without max_age', () => {
      expectValid({ cache: { mode: 'simple' } });
      expectValid({ cache: { mode: 'semantic', max_age: 0 } });
      expectValid({ cache: { mode: 'simple', max_age: 3600 } });
    });
    it('requires mode', () => expectIssue({ cache: { max_age: 10 } }, 'cache.mode', 'is required'));
    it('rejects an unknown mode', () => expectIssue({ cache: { mode: 'exact' } }, 'cache.mode', 'must be one of "simple", "semantic"'));
    it('rejects a negative or fractional max_age', () => {
      expectIssue({ cache: { mode: 'simple', max_age: -1 } }, 'cache.max_age', 'must be >= 0');
      expectIssue({ cache: { mode: 'simple', max_age: 1.5 } }, 'cache.max_age', 'must be an integer');
    });
    it('rejects other keys', () => expectIssue({ cache: { mode: 'simple', ttl: 5 } }, 'cache.ttl', 'is not an allowed key'));
  });

  describe('retry', () => {
    it('accepts attempts 0..10 with status codes and retry-after', () => {
      expectValid({ retry: { attempts: 0 } });
      expectValid({ retry: { attempts: 10, on_status_codes: [429, 503], use_retry_after_headers: true } });
    });
    it('requires attempts', () => expectIssue({ retry: { on_status_codes: [429] } }, 'retry.attempts', 'is required'));
    it('bounds attempts', () => {
      expectIssue({ retry: { attempts: 11 } }, 'retry.attempts', 'must be <= 10');
      expectIssue({ retry: { attempts: -1 } }, 'retry.attempts', 'must be >= 0');
      expectIssue({ retry: { attempts: 2.5 } }, 'retry.attempts', 'must be an integer');
    });
    it('checks status codes and the retry-after switch', () => {
      expectIssue({ retry: { attempts: 1, on_status_codes: [429, 1000] } }, 'retry.on_status_codes.1', 'must be <= 599');
      expectIssue({ retry: { attempts: 1, on_status_codes: ['429'] } }, 'retry.on_status_codes.0', 'must be an integer');
      expectIssue({ retry: { attempts: 1, use_retry_after_headers: 'yes' } }, 'retry.use_retry_after_headers', 'must be a boolean');
    });
    it('rejects other keys', () => expectIssue({ retry: { attempts: 1, backoff: 2 } }, 'retry.backoff', 'is not an allowed key'));
  });

  describe('cb_config', () => {
    const cb = (extra: Cfg): Cfg => with_({ cb_config: { failure_threshold: 3, cooldown_interval: 30000, ...extra } });
    it('accepts the minimums and optional failure_status_codes', () => {
      expectValid(cb({}));
      expectValid(cb({ failure_threshold: 1, cooldown_interval: 60000.5, failure_status_codes: [500, 502] }));
    });
    it('requires failure_threshold and cooldown_interval', () => {
      expectIssue(with_({ cb_config: { cooldown_interval: 30000 } }), 'cb_config.failure_threshold', 'is required');
      expectIssue(with_({ cb_config: { failure_threshold: 1 } }), 'cb_config.cooldown_interval', 'is required');
    });
    it('enforces the §8 minimums', () => {
      expectIssue(cb({ failure_threshold: 0 }), 'cb_config.failure_threshold', 'must be >= 1');
      expectIssue(cb({ cooldown_interval: 29999 }), 'cb_config.cooldown_interval', 'must be >= 30000');
    });
    it('checks failure_status_codes', () => {
      expectIssue(cb({ failure_status_codes: [500, 50] }), 'cb_config.failure_status_codes.1', 'must be >= 100');
    });
    it('rejects other keys', () => expectIssue(cb({ half_open: true }), 'cb_config.half_open', 'is not an allowed key'));
  });

  describe('targets (recursive)', () => {
    it('accepts nested targets three levels deep', () => {
      expectValid({
        strategy: { mode: 'fallback', on_status_codes: [429] },
        targets: [
          lb({ provider: '@a', weight: 1 }, lb({ provider: '@b' }, { virtual_key: 'vk', retry: { attempts: 2 } })),
          { provider: 'openai', api_key: 'k', override_params: { model: 'm' } },
        ],
      });
    });

    it('reports the exact path of a problem three levels down', () => {
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          lb({ provider: '@a' }, lb({ provider: '@b' }, { provider: '@c', cb_config: { failure_threshold: 2, cooldown_interval: 1000 } })),
        ],
      };
      expect(checkConfig(config)[0]).to.deep.equal({ path: 'targets.0.targets.1.targets.1.cb_config.cooldown_interval', rule: 'must be >= 30000' });
      const two = { strategy: { mode: 'fallback' }, targets: [lb({ provider: '@a' }, { provider: '@b', cb_config: { failure_threshold: 2, cooldown_interval: 1 } })] };
      expectIssue(two, 'targets.0.targets.1.cb_config.cooldown_interval', 'must be >= 30000');
    });

    it('rejects unknown keys in targets at any depth', () => {
      expectIssue(lb({ provider: '@a', model: 'gpt' }), 'targets.0.model', 'is not an allowed key');
      expectIssue(lb(lb({ provider: '@a' }, lb({ provider: '@b', extra: {} }))), 'targets.0.targets.1.targets.0.extra', 'is not an allowed key');
    });

    it('checks every field in targets like at the root', () => {
      expectIssue(lb({ provider: '@a' }, { provider: '@b', weight: -2 }), 'targets.1.weight', 'must be >= 0');
      expectIssue(lb({ provider: '@a', retry: { attempts: 20 } }), 'targets.0.retry.attempts', 'must be <= 10');
      expectIssue(lb({ provider: '@a', input_guardrails: [1] }), 'targets.0.input_guardrails.0', 'must be a guardrail id (string) or a guardrail object');
      expectIssue(lb(lb({ provider: '@a' }, { targets: [] })), 'targets.0.targets.1.targets', 'must have at least 1 item(s)');
    });

    it('checks targets of a node whose own fields are wrong', () => {
      const issues = checkConfig({ strategy: { mode: 'loadbalance' }, targets: [{ provider: '@a', x: 1 }], y: 2 });
      expect(issues.map((i) => i.path)).to.include.members(['y', 'targets.0.x']);
    });
  });

  describe('strategy', () => {
    for (const mode of ['single', 'loadbalance', 'fallback']) {
      it(`accepts mode ${mode}`, () => expectValid({ strategy: { mode }, targets: [BASE] }));
    }
    it('requires mode', () => expectIssue({ strategy: {}, targets: [BASE] }, 'strategy.mode', 'is required'));
    it('rejects an unknown mode', () => {
      expectIssue({ strategy: { mode: 'random' }, targets: [BASE] }, 'strategy.mode', 'must be one of "single", "loadbalance", "fallback", "conditional"');
    });
    it('rejects unknown strategy keys', () => {
      expectIssue({ strategy: { mode: 'single', weights: [1] }, targets: [BASE] }, 'strategy.weights', 'is not an allowed key');
    });
    it('requires targets when a strategy is set, at any depth', () => {
      expectIssue({ strategy: { mode: 'fallback' } }, 'targets', 'is required when strategy.mode is set');
      expectIssue(lb({ provider: '@a' }, { strategy: { mode: 'single' }, provider: '@b' }), 'targets.1.targets', 'is required when strategy.mode is set');
    });
    it('allows on_status_codes only in fallback mode', () => {
      expectValid({ strategy: { mode: 'fallback', on_status_codes: [429, 500] }, targets: [BASE, BASE] });
      expectIssue({ strategy: { mode: 'loadbalance', on_status_codes: [429] }, targets: [BASE] }, 'strategy.on_status_codes', 'is only allowed when strategy.mode is "fallback"');
      expectIssue({ strategy: { mode: 'fallback', on_status_codes: [42] }, targets: [BASE] }, 'strategy.on_status_codes.0', 'must be >= 100');
    });
  });

  describe('conditional strategy', () => {
    const targets = [{ name: 'fast', provider: '@a' }, { name: 'smart', provider: '@b' }];
    const conditional = (strategy: Cfg, ts: Cfg[] = targets): Cfg => ({ strategy: { mode: 'conditional', ...strategy }, targets: ts });

    it('accepts conditions and default that name targets', () => {
      expectValid(conditional({ conditions: [{ query: { 'metadata.tier': { $eq: 'pro' } }, then: 'smart' }], default: 'fast' }));
    });
    it('does not check query operators', () => {
      expectValid(conditional({ conditions: [{ query: { $whatever: 1 }, then: 'smart' }, { query: {}, then: 'fast' }], default: 'fast' }));
    });
    it('requires conditions and default', () => {
      expectIssue(conditional({ default: 'fast' }), 'strategy.conditions', 'is required when strategy.mode is "conditional"');
      expectIssue(conditional({ conditions: [{ query: {}, then: 'fast' }] }), 'strategy.default', 'is required when strategy.mode is "conditional"');
    });
    it('requires at least one condition', () => {
      expectIssue(conditional({ conditions: [], default: 'fast' }), 'strategy.conditions', 'must have at least 1 item(s)');
    });
    it('checks condition items', () => {
      expectIssue(conditional({ conditions: [{ then: 'fast' }], default: 'fast' }), 'strategy.conditions.0.query', 'is required');
      expectIssue(conditional({ conditions: [{ query: {} }], default: 'fast' }), 'strategy.conditions.0.then', 'is required');
      expectIssue(conditional({ conditions: [{ query: [], then: 'fast' }], default: 'fast' }), 'strategy.conditions.0.query', 'must be an object');
      expectIssue(conditional({ conditions: [{ query: {}, then: 1 }], default: 'fast' }), 'strategy.conditions.0.then', 'must be a string');
      expectIssue(conditional({ conditions: [{ query: {}, then: 'fast', else: 'x' }], default: 'fast' }), 'strategy.conditions.0.else', 'is not an allowed key');
      expectIssue(conditional({ conditions: [{ query: {}, then: 'fast' }], default: 2 }), 'strategy.default', 'must be a string');
    });
    it('requires then and default to name a target of the same node', () => {
      expectIssue(conditional({ conditions: [{ query: {}, then: 'fast' }, { query: {}, then: 'cheap' }], default: 'fast' }),
        'strategy.conditions.1.then', 'must name a target of this node: no target is named "cheap"');
      expectIssue(conditional({ conditions: [{ query: {}, then: 'fast' }], default: 'slow' }),
        'strategy.default', 'must name a target of this node: no target is named "slow"');
    });
    it('does not look for names in nested targets', () => {
      const nested = [{ name: 'group', ...lb({ name: 'inner', provider: '@a' }) }];
      expectIssue(conditional({ conditions: [{ query: {}, then: 'inner' }], default: 'group' }, nested), 'strategy.conditions.0.then', /"inner"/);
    });
    it('checks conditional nodes inside targets', () => {
      const inner = conditional({ conditions: [{ query: {}, then: 'nope' }], default: 'fast' });
      expectIssue(lb(inner), 'targets.0.strategy.conditions.0.then', 'must name a target of this node: no target is named "nope"');
    });
  });

  describe('passthrough', () => {
    it('accepts passthrough alone or with plain settings', () => {
      expectValid({ passthrough: true });
      expectValid({ passthrough: true, provider: 'openai', retry: { attempts: 1 }, request_timeout: 5000, forward_headers: ['x-a'] });
    });
    const excluded: [string, unknown][] = [
      ['targets', [BASE]],
      ['strategy', { mode: 'single' }],
      ['override_params', { model: 'm' }],
      ['input_guardrails', ['g']],
      ['output_guardrails', ['g']],
      ['before_request_hooks', [{ id: 'h' }]],
      ['after_request_hooks', [{ id: 'h' }]],
    ];
    for (const [key, value] of excluded) {
      it(`rejects passthrough with ${key}`, () => {
        expect(checkConfig({ passthrough: true, [key]: value })).to.deep.include({ path: key, rule: 'cannot be combined with passthrough' });
        expectIssue({ passthrough: true, provider: '@a', [key]: value }, key, 'cannot be combined with passthrough');
        expectValid({ passthrough: false, provider: '@a', ...(key === 'strategy' ? { targets: [BASE] } : {}), [key]: value });
      });
    }
    it('rejects passthrough with strategy+targets at the strategy key', () => {
      expectIssue({ passthrough: true, strategy: { mode: 'single' }, targets: [BASE] }, 'strategy', 'cannot be combined with passthrough');
    });
    it('applies in targets too', () => {
      expectIssue(lb({ passthrough: true, override_params: { model: 'x' } }), 'targets.0.override_params', 'cannot be combined with passthrough');
    });
  });

  describe('deployments', () => {
    const d = { deployment_id: 'gpt4o-eu', alias: 'gpt-4o', api_version: '2024-06-01' };
    it('accepts complete items with optional is_default', () => {
      expectValid(with_({ deployments: [d, { ...d, alias: 'b', is_default: true }] }));
      expectValid(with_({ deployments: [] }));
    });
    for (const key of ['deployment_id', 'alias', 'api_version']) {
      it(`requires ${key}`, () => {
        const item: Cfg = { ...d };
        delete item[key];
        expectIssue(with_({ deployments: [d, item] }), `deployments.1.${key}`, 'is required');
      });
    }
    it('checks item types and keys', () => {
      expectIssue(with_({ deployments: [{ ...d, is_default: 'yes' }] }), 'deployments.0.is_default', 'must be a boolean');
      expectIssue(with_({ deployments: [{ ...d, alias: 3 }] }), 'deployments.0.alias', 'must be a string');
      expectIssue(with_({ deployments: [{ ...d, region: 'eu' }] }), 'deployments.0.region', 'is not an allowed key');
      expectIssue(with_({ deployments: ['gpt4o-eu'] }), 'deployments.0', 'must be an object');
    });
  });

  describe('before/after request hooks', () => {
    const full = {
      id: 'pii-check',
      type: 'guardrail',
      async: false,
      deny: true,
      on_fail: { feedback: { value: -1, weight: 1, metadata: { why: 'pii' } }, deny: true },
      on_success: { feedback: { value: 1 } },
      checks: [{ id: 'default.regexMatch', parameters: { rule: '\\d{3}' } }],
    };
    for (const key of ['before_request_hooks', 'after_request_hooks']) {
      describe(key, () => {
        it('accepts a minimal and a full hook', () => {
          expectValid({ [key]: [{ id: 'h' }, full] });
          expectValid({ [key]: [] });
        });
        it('requires id', () => expectIssue({ [key]: [{ type: 'guardrail' }] }, `${key}.0.id`, 'is required'));
        it('checks field types', () => {
          expectIssue({ [key]: [{ ...full, id: 1 }] }, `${key}.0.id`, 'must be a string');
          expectIssue({ [key]: [{ ...full, type: 1 }] }, `${key}.0.type`, 'must be a string');
          expectIssue({ [key]: [{ ...full, async: 'no' }] }, `${key}.0.async`, 'must be a boolean');
          expectIssue({ [key]: [{ ...full, deny: 1 }] }, `${key}.0.deny`, 'must be a boolean');
          expectIssue({ [key]: ['h'] }, `${key}.0`, 'must be an object');
        });
        it('checks on_fail / on_success', () => {
          expectIssue({ [key]: [{ id: 'h', on_fail: true }] }, `${key}.0.on_fail`, 'must be an object');
          expectIssue({ [key]: [{ id: 'h', on_fail: { deny: 'yes' } }] }, `${key}.0.on_fail.deny`, 'must be a boolean');
          expectIssue({ [key]: [{ id: 'h', on_success: { feedback: { value: 'good' } } }] }, `${key}.0.on_success.feedback.value`, 'must be a number');
          expectIssue({ [key]: [{ id: 'h', on_success: { feedback: { weight: '1' } } }] }, `${key}.0.on_success.feedback.weight`, 'must be a number');
          expectIssue({ [key]: [{ id: 'h', on_success: { feedback: { metadata: 'm' } } }] }, `${key}.0.on_success.feedback.metadata`, 'must be an object');
          expectIssue({ [key]: [{ id: 'h', on_success: { feedback: { score: 1 } } }] }, `${key}.0.on_success.feedback.score`, 'is not an allowed key');
          expectIssue({ [key]: [{ id: 'h', on_fail: { retry: true } }] }, `${key}.0.on_fail.retry`, 'is not an allowed key');
        });
        it('checks checks items', () => {
          expectIssue({ [key]: [{ id: 'h', checks: {} }] }, `${key}.0.checks`, 'must be an array');
          expectIssue({ [key]: [{ id: 'h', checks: [{ parameters: {} }] }] }, `${key}.0.checks.0.id`, 'is required');
          expectIssue({ [key]: [{ id: 'h', checks: [{ id: 'c' }] }] }, `${key}.0.checks.0.parameters`, 'is required');
          expectIssue({ [key]: [{ id: 'h', checks: [{ id: 'c', parameters: [] }] }] }, `${key}.0.checks.0.parameters`, 'must be an object');
          expectIssue({ [key]: [{ id: 'h', checks: [{ id: 'c', parameters: {}, on: 1 }] }] }, `${key}.0.checks.0.on`, 'is not an allowed key');
        });
        it('rejects unknown hook keys', () => expectIssue({ [key]: [{ id: 'h', sequential: true }] }, `${key}.0.sequential`, 'is not an allowed key'));
      });
    }
  });

  describe('input/output guardrails', () => {
    for (const key of ['input_guardrails', 'output_guardrails']) {
      describe(key, () => {
        it('accepts string ids and objects with checks keyed by id', () => {
          expectValid({ [key]: ['pg-abc', { id: 'g', deny: true, async: false, 'default.wordCount': { minWords: 1 }, 'acme.pii': {} }] });
          expectValid({ [key]: [{ 'default.contains': { words: ['x'] }, on_fail: { feedback: { value: -1, weight: 1, metadata: {} } }, on_success: { feedback: {} } }] });
          expectValid({ [key]: [] });
        });
        it('rejects an empty string id', () => expectIssue({ [key]: ['g', ''] }, `${key}.1`, 'must be a non-empty string'));
        it('rejects items that are neither a string nor an object', () => {
          for (const item of [1, null, true, ['g']]) {
            expectIssue({ [key]: ['g', { id: 'x' }, item] }, `${key}.2`, 'must be a guardrail id (string) or a guardrail object');
          }
        });
        it('rejects a further key that is not an object', () => {
          expectIssue({ [key]: [{ id: 'g', 'default.wordCount': 5 }] }, `${key}.0.default.wordCount`, 'must be an object (a check keyed by its id)');
          expectIssue({ [key]: ['a', 'b', { name: 'x' }] }, `${key}.2.name`, 'must be an object (a check keyed by its id)');
          expectIssue({ [key]: [{ checks: [] }] }, `${key}.0.checks`, 'must be an object (a check keyed by its id)');
        });
        it('checks the declared keys', () => {
          expectIssue({ [key]: [{ id: 1 }] }, `${key}.0.id`, 'must be a string');
          expectIssue({ [key]: [{ deny: 'true' }] }, `${key}.0.deny`, 'must be a boolean');
          expectIssue({ [key]: [{ async: 1 }] }, `${key}.0.async`, 'must be a boolean');
          expectIssue({ [key]: [{ on_fail: 'x' }] }, `${key}.0.on_fail`, 'must be an object');
          expectIssue({ [key]: [{ on_fail: { feedback: { value: 'x' } } }] }, `${key}.0.on_fail.feedback.value`, 'must be a number');
          expectIssue({ [key]: [{ on_success: { feedback: { metadata: 1 } } }] }, `${key}.0.on_success.feedback.metadata`, 'must be an object');
          expectIssue({ [key]: [{ on_success: { extra: {} } }] }, `${key}.0.on_success.extra`, 'is not an allowed key');
        });
      });
    }

    it('allows deny in on_fail / on_success only for output guardrails', () => {
      expectValid({ output_guardrails: [{ 'default.contains': {}, on_fail: { deny: true }, on_success: { deny: false } }] });
      expectIssue({ input_guardrails: [{ 'default.contains': {}, on_fail: { deny: true } }] }, 'input_guardrails.0.on_fail.deny', 'is not an allowed key');
      expectIssue({ output_guardrails: [{ on_fail: { deny: 'yes' } }] }, 'output_guardrails.0.on_fail.deny', 'must be a boolean');
    });

    it('reports guardrail problems with the node path in targets', () => {
      expectIssue(lb({ provider: '@a', output_guardrails: ['g', { x: 1 }] }), 'targets.0.output_guardrails.1.x', 'must be an object (a check keyed by its id)');
    });
  });

  describe('a full config', () => {
    const full: Cfg = {
      name: 'root',
      strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.plan': { $eq: 'paid' } }, then: 'paid' }], default: 'free' },
      cache: { mode: 'semantic', max_age: 60 },
      retry: { attempts: 3, on_status_codes: [429], use_retry_after_headers: true },
      request_timeout: 30000,
      forward_headers: ['x-user-id'],
      override_params: { temperature: 0 },
      default_params: { max_tokens: 256 },
      drop_params: ['user'],
      strict_compat_compliance: false,
      before_request_hooks: [{ id: 'in', checks: [{ id: 'default.wordCount', parameters: { max: 100 } }] }],
      after_request_hooks: [{ id: 'out', async: true }],
      input_guardrails: ['pg-1'],
      output_guardrails: [{ 'default.contains': { words: ['x'] }, deny: true }],
      targets: [
        {
          name: 'paid',
          strategy: { mode: 'fallback', on_status_codes: [429, 503] },
          targets: [
            { provider: 'azure-openai', cloudB_resource_name: 'r', cloudB_deployment_id: 'd', cloudB_api_version: 'v', Authorization: 'Bearer t', deployments: [{ deployment_id: 'd', alias: 'a', api_version: 'v', is_default: true }] },
            { provider: 'bedrock', cloudA_access_key_id: 'a', cloudA_secret_access_key: 's', cloudA_region: 'eu-west-1', cb_config: { failure_threshold: 5, cooldown_interval: 60000 } },
          ],
        },
        { name: 'free', provider: 'vertex-ai', cloudC_region: 'eu', cloudC_project_id: 'p', vendorD_organization: 'o', weight: 1 },
      ],
    };

    it('passes checkConfig', () => expectValid(full));

    it('passes the exported recursive ConfigSchema', () => {
      expect(Value.Check(ConfigSchema, full)).to.equal(true);
      expect(Value.Check(ConfigSchema, { targets: [{ provider: '@a', bogus: 1 }] })).to.equal(false);
      expect(Value.Check(ConfigSchema, { input_guardrails: [{ 'default.x': 5 }] })).to.equal(false);
    });

    it('does not mutate the config', () => {
      const copy = structuredClone(full);
      checkConfig(full);
      expect(full).to.deep.equal(copy);
    });
  });
});

describe('assembled header fields', () => {
  const properties = (ConfigSchema as unknown as { properties: Record<string, TSchema> }).properties;
  const fields = [...keys.headerFields.values()];

  it('let a header set exactly the top-level keys of the assembled schema, except the tree', () => {
    expect(fields.map((f) => f.field).sort()).to.deep.equal(Object.keys(properties).filter((k) => k !== 'targets' && k !== 'strategy').sort());
    expect(keys.keys.slice().sort()).to.deep.equal(Object.keys(properties).sort());
  });

  it('gives each key the wire kind of its schema', () => {
    const kindOf = (s: TSchema): string => {
      if (s['type'] === 'array') {
        const items = s['items'] as TSchema;
        if (items['type'] === 'string') return 'string[]';
        if (items['type'] === 'integer' || items['type'] === 'number') return 'number[]';
        return 'array';
      }
      if (s['anyOf']) return 'string'; // string enums
      return String(s['type']);
    };
    for (const { field, kind } of fields) expect(kind, field).to.equal(kindOf(properties[field]!));
  });

  it('names each header after its key', () => {
    for (const [header, { field }] of keys.headerFields) expect(header).to.equal('x-gw-' + field.replace(/_/g, '-').toLowerCase());
  });
});
