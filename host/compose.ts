/**
 * Composition: which plugins a gateway loads. A gateway file (JSON) looks like
 *   { "preset": "default", "plugins": ["provider.openai", { "use": "./my-check.js", "options": {...} }], "disable": ["observe.access-log"] }
 * `plugins` adds to the preset (an entry naming a preset plugin replaces its options); paths are
 * relative to the file. Without a file the default preset (every built-in) is loaded.
 * `"allowUnauthenticated": true` lets a gateway without a key-check plugin serve protected routes.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { PluginLoadError, type PluginClass, type PluginEntry } from '../core/index.js';
import { type ResolvedEntry } from '../core/loader.js';
import { BUILTIN_PLUGINS, PRESETS, RENAMED_PLUGINS, presetPlugins } from './builtins.js';
import { importUserModule } from './user-modules.js';

export interface Composition {
  preset?: string;
  plugins?: PluginEntry[];
  disable?: string[];
  /** Serve protected routes without a key-check plugin (no `auth` service); refused at boot otherwise. */
  allowUnauthenticated?: boolean;
}

export async function readGatewayFile(file: string): Promise<{ composition: Composition; baseDir: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new PluginLoadError(`cannot read gateway file ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new PluginLoadError(`gateway file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PluginLoadError(`gateway file ${file} must hold a JSON object`);
  }
  const allowed = ['preset', 'plugins', 'disable', 'allowUnauthenticated'];
  for (const key of Object.keys(parsed)) {
    if (!allowed.includes(key)) throw new PluginLoadError(`gateway file ${file}: unknown key "${key}" (allowed: ${allowed.join(', ')})`);
  }
  const allow = (parsed as Composition).allowUnauthenticated;
  if (allow !== undefined && typeof allow !== 'boolean') {
    throw new PluginLoadError(`gateway file ${file}: allowUnauthenticated must be true or false`);
  }
  return { composition: parsed as Composition, baseDir: dirname(resolve(file)) };
}

/** `settings.databaseUrl` picks the record store of the preset (store.postgres instead of store.sqlite). */
export async function resolveComposition(
  composition: Composition, baseDir = process.cwd(), settings: { databaseUrl?: string } = {},
): Promise<ResolvedEntry[]> {
  const presetName = composition.preset ?? 'default';
  const preset = PRESETS[presetName];
  if (!preset) throw new PluginLoadError(`unknown preset "${presetName}" (known: ${Object.keys(PRESETS).join(', ')})`);
  const disabled = new Set((composition.disable ?? []).map(currentId));
  const entries: ResolvedEntry[] = [];
  const indexById = new Map<string, number>();
  const add = (entry: ResolvedEntry) => {
    const id = entry.cls.manifest?.id;
    const at = id === undefined ? undefined : indexById.get(id);
    // Naming a preset plugin again re-configures it rather than loading it twice.
    if (at !== undefined && entries[at]!.source.startsWith('preset:')) {
      entries[at] = entry;
      return;
    }
    if (id !== undefined && at === undefined) indexById.set(id, entries.length);
    entries.push(entry);
  };
  for (const id of presetPlugins(preset, settings)) {
    if (!disabled.has(id)) add({ cls: await loadBuiltin(id), source: `preset:${presetName}` });
  }
  for (const entry of composition.plugins ?? []) {
    const resolved = await resolveEntry(entry, baseDir);
    if (!disabled.has(resolved.cls.manifest?.id)) add(resolved);
  }
  return entries;
}

async function resolveEntry(entry: PluginEntry, baseDir: string): Promise<ResolvedEntry> {
  if (typeof entry === 'function') return { cls: entry, source: `class ${entry.name}` };
  if (typeof entry === 'string') return resolveUse(entry, undefined, baseDir);
  if (entry && typeof entry === 'object' && 'use' in entry) return resolveUse(entry.use, entry.options, baseDir);
  throw new PluginLoadError(`invalid plugin entry ${JSON.stringify(entry)}: use an id, a path, or { "use": ..., "options": ... }`);
}

function currentId(id: string): string {
  return RENAMED_PLUGINS[id] ?? id;
}

async function resolveUse(use: string | PluginClass, options: unknown, baseDir: string): Promise<ResolvedEntry> {
  if (typeof use === 'function') return { cls: use, options, source: `class ${use.name}` };
  use = currentId(use);
  if (BUILTIN_PLUGINS[use]) return { cls: await loadBuiltin(use), options, source: use };
  if (!use.startsWith('.') && !isAbsolute(use)) {
    throw new PluginLoadError(`unknown plugin "${use}": not a built-in id (${Object.keys(BUILTIN_PLUGINS).join(', ')}) nor a path`);
  }
  const file = isAbsolute(use) ? use : resolve(baseDir, use);
  let mod: Record<string, unknown>;
  try {
    mod = await importUserModule(file);
  } catch (e) {
    throw new PluginLoadError(`cannot load plugin module ${file}: ${(e as Error).message}`);
  }
  const cls = (mod['default'] ?? mod['plugin']) as PluginClass | undefined;
  if (typeof cls !== 'function' || !cls.manifest) {
    throw new PluginLoadError(`plugin module ${file} must export a plugin class (default export) with a static manifest`);
  }
  return { cls, options, source: file };
}

async function loadBuiltin(id: string): Promise<PluginClass> {
  const load = BUILTIN_PLUGINS[id];
  if (!load) throw new PluginLoadError(`unknown built-in plugin "${id}"`);
  return (await load()).default;
}
