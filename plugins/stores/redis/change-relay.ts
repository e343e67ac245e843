/**
 * The invalidation bus (core Changes) relayed over Redis pub/sub, so a change written on one
 * instance reaches every instance's caches in milliseconds. One channel, `<keyPrefix>changes`;
 * a message is `{"o": origin, "t": topic, "i": id}`, and an instance skips its own (it told its
 * subscribers already). Publishing uses the shared client; receiving needs a connection of its own
 * (a subscribed connection can do nothing else). Both reconnect in the background. Messages sent
 * while a connection is down are lost, so once subscribed again the relay tells every subscriber
 * that anything may have changed; meanwhile the plugins' cache lifetimes bound staleness.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ChangeRelay, Changes } from '../../../core/index.js';

interface Message {
  o: string;
  t: string;
  i?: string;
}

export class RedisChangeRelay implements ChangeRelay {
  readonly #origin = randomUUID();
  #subscribedOnce = false;

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    readonly channel: string,
    private readonly changes: Changes,
    private readonly warn: (error: unknown, message: string) => void,
  ) {
    subscriber.on('ready', () => void this.#subscribe());
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) this.#receive(text);
    });
    if (subscriber.status === 'ready') void this.#subscribe();
  }

  send(topic: string, id: string | undefined): void {
    if (this.publisher.status !== 'ready') {
      this.warn(new Error(`redis is ${this.publisher.status}`), 'redis unavailable: a change reaches other instances when their caches expire');
      return;
    }
    const message: Message = id === undefined ? { o: this.#origin, t: topic } : { o: this.#origin, t: topic, i: id };
    this.publisher.publish(this.channel, JSON.stringify(message))
      .catch((e: unknown) => this.warn(e, 'publishing a change failed: other instances see it when their caches expire'));
  }

  async #subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel);
    } catch (e) {
      // The next 'ready' (after a reconnect) tries again.
      this.warn(e, 'subscribing to changes failed');
      return;
    }
    // Back after an outage: whatever was published meanwhile is lost, so everything is stale.
    if (this.#subscribedOnce) this.changes.deliverAll();
    this.#subscribedOnce = true;
  }

  #receive(text: string): void {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (!message || typeof message.t !== 'string' || message.o === this.#origin) return;
    this.changes.deliver(message.t, typeof message.i === 'string' ? message.i : undefined);
  }
}
