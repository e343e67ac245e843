/** The invalidation bus: local delivery, the relay, topics kept apart, failing listeners isolated. */
import { expect } from 'chai';
import { Changes, changesIn, ServiceRegistry, Services, type ChangeRelay } from '../../core/index.js';
import { createRootContainer } from '../../core/di.js';

describe('core: Changes (the invalidation bus)', () => {
  it('delivers a published change to this instance\'s subscribers of that topic only, at once', () => {
    const changes = new Changes();
    const keys: Array<string | undefined> = [];
    const configs: Array<string | undefined> = [];
    changes.subscribe('keys', (id) => keys.push(id));
    changes.subscribe('configs', (id) => configs.push(id));
    changes.publish('keys', 'k1');
    changes.publish('keys');
    expect(keys).to.deep.equal(['k1', undefined]);
    expect(configs).to.deep.equal([]);
  });

  it('sends what is published here through the relay, and delivers what the relay brings without sending it back', () => {
    const changes = new Changes();
    const sent: Array<[string, string | undefined]> = [];
    const relay: ChangeRelay = { send: (topic, id) => void sent.push([topic, id]) };
    changes.attach(relay);
    const seen: Array<string | undefined> = [];
    changes.subscribe('configs', (id) => seen.push(id));
    changes.publish('configs', 'c1');
    changes.deliver('configs', 'c2');
    expect(sent).to.deep.equal([['configs', 'c1']]);
    expect(seen).to.deep.equal(['c1', 'c2']);
    changes.attach(undefined);
    changes.publish('configs', 'c3');
    expect(sent).to.have.length(1);
  });

  it('deliverAll tells every topic that anything may have changed', () => {
    const changes = new Changes();
    const seen: string[] = [];
    changes.subscribe('a', (id) => seen.push(`a:${id}`));
    changes.subscribe('b', (id) => seen.push(`b:${id}`));
    changes.deliverAll();
    expect(seen).to.have.members(['a:undefined', 'b:undefined']);
  });

  it('a listener that throws is reported and the others still hear the change', () => {
    const errors: Array<[unknown, string]> = [];
    const changes = new Changes((error, topic) => void errors.push([error, topic]));
    const seen: string[] = [];
    changes.subscribe('t', () => {
      throw new Error('boom');
    });
    changes.subscribe('t', (id) => void seen.push(id!));
    changes.publish('t', 'x');
    expect(seen).to.deep.equal(['x']);
    expect(errors).to.have.length(1);
    expect((errors[0]![0] as Error).message).to.equal('boom');
    expect(errors[0]![1]).to.equal('t');
  });

  it('unsubscribing stops delivery', () => {
    const changes = new Changes();
    let count = 0;
    const stop = changes.subscribe('t', () => void count++);
    changes.publish('t');
    stop();
    changes.publish('t');
    expect(count).to.equal(1);
  });

  it('changesIn finds the gateway\'s bus, or gives a private one where none is registered', () => {
    const services = new ServiceRegistry(createRootContainer());
    const own = changesIn(services);
    expect(own).to.be.instanceOf(Changes);
    const registered = new Changes();
    services.provide(Services.Changes, registered);
    expect(changesIn(services)).to.equal(registered);
  });
});
