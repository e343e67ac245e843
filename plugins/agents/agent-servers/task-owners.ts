/**
 * Which caller owns which A2A task (and context), per agent server, in the shared state store
 * (Services.State: process memory, or Redis shared by a fleet). The gateway records the owner of
 * every task and context an agent's answer names to a caller, and checks it before passing on a
 * call that names an existing one.
 *
 *   key    a2a-owner:<server id>:<t|c>:<sha-256 of the id>     (bounded: ids are never stored)
 *   value  sha-256 of the caller (task-caller.ts)              (bounded, and names nobody)
 *   ttl    `taskOwnerTtlMs` from the last answer naming it
 *
 * The first caller an id is recorded for keeps it: a later answer naming it to someone else does
 * not take it over. Ids longer than MAX_ID_LENGTH are not recorded (so a call naming one is refused).
 */
import { createHash } from 'node:crypto';
import { GatewayError, type StateStore } from '../../../core/index.js';
import type { Named } from './task-refs.js';

export const MAX_ID_LENGTH = 1024;
/** How many tasks and contexts one call may name (a message's referenceTaskIds included). */
export const MAX_NAMED = 64;

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');
const keyOf = (serverId: string, kind: 't' | 'c', id: string) => `a2a-owner:${serverId}:${kind}:${digest(id)}`;

export type Refusal = { kind: 'task' | 'context' | 'too-many'; id: string };

export interface Check {
  refused?: Refusal;
  /** The store keys found to be the caller's: recording them again only refreshes their time to live. */
  mine: ReadonlySet<string>;
}

export interface TaskOwnersDeps {
  store(): StateStore;
  ttlMs: number;
  /** A failed read: the call is refused with a 503. */
  onCheckError(error: unknown): void;
  /** A failed write: the answer still goes out; the task is then refused to everyone (fail closed). */
  onRecordError(error: unknown): void;
}

export class TaskOwners {
  constructor(private readonly deps: TaskOwnersDeps) {}

  /**
   * Whether `caller` may use everything `named`, else the first thing it may not: a task must be
   * recorded as the caller's; a context only must not be another caller's. A store that fails is a
   * 503 (the call is not passed on).
   */
  async check(serverId: string, named: Named, caller: string): Promise<Check> {
    const mine = new Set<string>();
    if (named.tasks.length + named.contexts.length > MAX_NAMED) return { refused: { kind: 'too-many', id: '' }, mine };
    const owner = digest(caller);
    const store = this.deps.store();
    const ownerOf = async (kind: 't' | 'c', id: string) => {
      if (id.length > MAX_ID_LENGTH) return undefined;
      const key = keyOf(serverId, kind, id);
      const found = await store.get(key);
      if (found === owner) mine.add(key);
      return found;
    };
    try {
      const [tasks, contexts] = await Promise.all([
        Promise.all(named.tasks.map((id) => ownerOf('t', id))),
        Promise.all(named.contexts.map((id) => ownerOf('c', id))),
      ]);
      const t = tasks.findIndex((o) => o !== owner);
      if (t >= 0) return { refused: { kind: 'task', id: named.tasks[t]! }, mine };
      const c = contexts.findIndex((o) => o !== undefined && o !== owner);
      if (c >= 0) return { refused: { kind: 'context', id: named.contexts[c]! }, mine };
      return { mine };
    } catch (e) {
      this.deps.onCheckError(e);
      // The store's own message may name its address: it goes to the log, not to the caller.
      throw new GatewayError({
        status: 503, code: 'state_unavailable', headers: { 'retry-after': '1' },
        message: `the state store (${store.kind}) is unavailable, so the owner of an A2A task cannot be checked; try again shortly`,
      });
    }
  }

  /**
   * Records `caller` as the owner of what an answer named, or refreshes the time to live of what
   * `mine` (the call's check) already found to be the caller's. Never throws.
   */
  async record(serverId: string, named: Named, caller: string, mine: ReadonlySet<string> = new Set()): Promise<void> {
    const owner = digest(caller);
    const keys = [
      ...named.tasks.filter((id) => id.length <= MAX_ID_LENGTH).map((id) => keyOf(serverId, 't', id)),
      ...named.contexts.filter((id) => id.length <= MAX_ID_LENGTH).map((id) => keyOf(serverId, 'c', id)),
    ].slice(0, MAX_NAMED);
    if (keys.length === 0) return;
    try {
      const store = this.deps.store();
      await Promise.all(keys.map((key) => (mine.has(key) ? store.set(key, owner, this.deps.ttlMs) : this.#claim(store, key, owner))));
    } catch (e) {
      this.deps.onRecordError(e);
    }
  }

  async #claim(store: StateStore, key: string, owner: string): Promise<void> {
    const { ttlMs } = this.deps;
    if (await store.setIfAbsent(key, owner, ttlMs)) return;
    const current = await store.get(key);
    if (current === owner) await store.set(key, owner, ttlMs);
    else if (current === undefined) await store.setIfAbsent(key, owner, ttlMs); // it expired meanwhile
  }
}
