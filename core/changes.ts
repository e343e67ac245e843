/**
 * The invalidation bus (`Services.Changes`). A plugin that keeps records in memory publishes a topic
 * when it writes one, and drops or reloads what it keeps when a topic it follows is published, on
 * this instance or, through a relay (Redis pub/sub with GW_REDIS_URL), on any other. Without a
 * relay it is in-process only, and the plugins' own cache lifetimes bound staleness.
 *
 * An `id` names the record that changed; undefined means "anything under this topic" (a relay that
 * may have missed messages, e.g. after a reconnect, tells every subscriber so).
 * Topics are the plugins' own (e.g. `api-keys`, `configs`); the kernel names none.
 * Nothing here runs per request: subscribers are called on writes and messages only.
 */
import type { PluginServices } from './service-registry.js';
import { Services } from './services.js';

export type ChangeListener = (id: string | undefined) => void;

/** Carries changes to the other instances. */
export interface ChangeRelay {
  send(topic: string, id: string | undefined): void;
}

export class Changes {
  readonly #listeners = new Map<string, Set<ChangeListener>>();
  #relay: ChangeRelay | undefined;

  constructor(private readonly onListenerError: (error: unknown, topic: string) => void = () => undefined) {}

  /** Tells this instance's subscribers at once, then the other instances through the relay. */
  publish(topic: string, id?: string): void {
    this.deliver(topic, id);
    this.#relay?.send(topic, id);
  }

  /** Follows a topic; returns the function that stops following it. */
  subscribe(topic: string, listener: ChangeListener): () => void {
    let set = this.#listeners.get(topic);
    if (!set) this.#listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** A change made on another instance (called by the relay). */
  deliver(topic: string, id: string | undefined): void {
    const set = this.#listeners.get(topic);
    if (!set) return;
    for (const listener of set) {
      try {
        listener(id);
      } catch (e) {
        this.onListenerError(e, topic);
      }
    }
  }

  /** Anything may have changed (the relay missed messages): every subscriber drops what it keeps. */
  deliverAll(): void {
    for (const topic of [...this.#listeners.keys()]) this.deliver(topic, undefined);
  }

  /** The relay to other instances (one; a later one replaces it). */
  attach(relay: ChangeRelay | undefined): void {
    this.#relay = relay;
  }
}

/** The gateway's bus; a private in-process one where none is registered (a plugin applied outside boot). */
export function changesIn(services: Pick<PluginServices, 'find'>): Changes {
  return services.find(Services.Changes) ?? new Changes();
}
