/** Target identity (stable, secret-free) and the per-config cache of breakers. */
import { expect } from 'chai';
import type { Target } from '../../../../core/index.js';
import { identityFields, targetIdentity } from '../../../../plugins/policies/circuit-breaker/identity.js';
import { BreakerTable } from '../../../../plugins/policies/circuit-breaker/table.js';
import { RecordingStore } from './test-store.js';

function target(fields: Record<string, unknown>, path = 'config.targets[0]'): Target {
  const t = { ...fields } as Target;
  Object.defineProperty(t, '$path', { value: path, enumerable: false });
  return t;
}

const base = { provider: 'openai', api_key: 'sk-secret-key', custom_host: 'http://127.0.0.1:9/v1', override_params: { model: 'gpt-4o' }, name: 'primary' };
const idOf = (fields: Record<string, unknown>, path?: string) => {
  const t = target(fields, path);
  return targetIdentity(identityFields(t), t.$path);
};

describe('circuit-breaker: identity', () => {
  it('is a stable 32-hex-char hash that never contains the key', () => {
    const id = idOf(base);
    expect(id).to.match(/^[0-9a-f]{32}$/);
    expect(idOf({ ...base })).to.equal(id);
    expect(id).not.to.include('sk-secret');
  });

  it('differs by provider, host, key, model, path and name', () => {
    const id = idOf(base);
    const variants = [
      idOf({ ...base, provider: 'other' }),
      idOf({ ...base, custom_host: 'http://127.0.0.1:10/v1' }),
      idOf({ ...base, api_key: 'sk-other' }),
      idOf({ ...base, override_params: { model: 'gpt-4o-mini' } }),
      idOf({ ...base, name: 'secondary' }),
      idOf(base, 'config.targets[1]'),
    ];
    expect(new Set([id, ...variants]).size).to.equal(7);
  });

  it('ignores settings that do not name the upstream (e.g. cb_config, temperature)', () => {
    expect(idOf({ ...base, cb_config: { failure_threshold: 2, cooldown_interval: 30000 }, override_params: { model: 'gpt-4o', temperature: 1 } })).to.equal(idOf(base));
  });
});

describe('circuit-breaker: breaker table', () => {
  const deps = { store: () => new RecordingStore(), onStoreError: () => undefined };
  const cb = Object.freeze({ failure_threshold: 1, cooldown_interval: 30000 });

  it('reuses the entry for the same cb_config, path and fields, and the breaker for the same identity', () => {
    const table = new BreakerTable(deps);
    const first = table.entryFor(target({ ...base, cb_config: cb }), cb);
    expect(table.entryFor(target({ ...base, cb_config: cb }), cb)).to.equal(first);
    // Another cb_config object (another config) for the same upstream shares the breaker.
    const other = { failure_threshold: 5, cooldown_interval: 60000 };
    const second = table.entryFor(target({ ...base, cb_config: other }), other);
    expect(second.breaker).to.equal(first.breaker);
    expect(second.policy.threshold).to.equal(5);
  });

  it('recomputes the identity when a field changes under the same path', () => {
    const table = new BreakerTable(deps);
    const first = table.entryFor(target(base), cb);
    const changed = table.entryFor(target({ ...base, api_key: 'sk-rotated' }), cb);
    expect(changed.breaker).not.to.equal(first.breaker);
    expect(changed.breaker.identity).to.equal(idOf({ ...base, api_key: 'sk-rotated' }));
  });

  it('keeps at most its cap of breakers', () => {
    const table = new BreakerTable(deps, 2);
    const a = table.breaker('a');
    table.breaker('b');
    table.breaker('c'); // drops a
    expect(table.breaker('a')).not.to.equal(a);
  });
});
