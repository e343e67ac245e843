/** state.memory: shared state in process memory (one instance). Registered as Services.State. */
import { Services, type Plugin, type PluginApi } from '../../../core/index.js';
import { MemoryStateStore } from './memory-state.js';

export default class MemoryStatePlugin implements Plugin {
  static readonly manifest = { id: 'state.memory', description: 'Shared state in process memory', provides: [Services.State] };
  #store?: MemoryStateStore;

  apply(api: PluginApi): void {
    this.#store = new MemoryStateStore();
    api.services.provide(Services.State, this.#store);
  }

  close(): void {
    this.#store?.close();
  }
}
