/** guardrail.json-schema: registers `default.jsonSchema` (validation with ajv). */
import type { Plugin, PluginApi } from '../../core/index.js';
import { jsonSchema } from './check.js';

export default class JsonSchemaGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.json-schema', description: 'default.jsonSchema: the JSON in the text is valid against a JSON Schema' };

  apply(api: PluginApi): void {
    api.registries.checks.register(jsonSchema.id, jsonSchema, api.id);
  }
}
