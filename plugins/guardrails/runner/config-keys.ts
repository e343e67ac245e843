/**
 * The hook and guardrail keys of a config node, run by this plugin. Guardrail arrays mix ids and
 * inline objects; their items are checked by hand, since a union's errors say little.
 */
import { compile, Type, type ConfigReport, type PluginConfig, type TSchema } from '../../../core/index.js';

const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const Strict = { additionalProperties: false } as const;
const AnyObject = Type.Object({});

const Feedback = Type.Object({ value: Opt(Type.Number()), weight: Opt(Type.Number()), metadata: Opt(AnyObject) }, Strict);
const Outcome = Type.Object({ feedback: Opt(Feedback), deny: Opt(Type.Boolean()) }, Strict);

const Hook = Type.Object({
  id: Type.String(),
  type: Opt(Type.String()),
  async: Opt(Type.Boolean()),
  deny: Opt(Type.Boolean()),
  on_fail: Opt(Outcome),
  on_success: Opt(Outcome),
  checks: Opt(Type.Array(Type.Object({ id: Type.String(), parameters: AnyObject }, Strict))),
}, Strict);

/** A guardrail given inline; its further keys are checks keyed by check id, each an object. */
function GuardrailObject(outcome: TSchema) {
  return Type.Object({
    id: Opt(Type.String()),
    deny: Opt(Type.Boolean()),
    async: Opt(Type.Boolean()),
    on_fail: Opt(outcome),
    on_success: Opt(outcome),
  }, { additionalProperties: Type.Object({}, { errorMessage: 'must be an object (a check keyed by its id)' }) });
}
// Only output guardrails can deny from on_fail / on_success (spec §2.1).
const InputGuardrail = GuardrailObject(Type.Object({ feedback: Opt(Feedback) }, Strict));
const OutputGuardrail = GuardrailObject(Outcome);
const GuardrailId = Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' });

const anArray = compile(Type.Array(Type.Unknown()));

function guardrailItems(guardrail: TSchema): (value: unknown, report: ConfigReport) => void {
  const validator = compile(guardrail);
  return (value, report) => {
    if (!Array.isArray(value)) {
      for (const i of anArray.issues(value)) report(i.path, i.rule);
      return;
    }
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') {
        if (item.length === 0) report(String(i), 'must be a non-empty string');
      } else if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        if (!validator.check(item)) for (const e of validator.issues(item)) report(e.path ? `${i}.${e.path}` : String(i), e.rule);
      } else {
        report(String(i), 'must be a guardrail id (string) or a guardrail object');
      }
    }
  };
}

export const GUARDRAILS_CONFIG: PluginConfig = {
  keys: Type.Object({
    before_request_hooks: Type.Array(Hook),
    after_request_hooks: Type.Array(Hook),
    input_guardrails: Type.Array(Type.Union([GuardrailId, InputGuardrail])),
    output_guardrails: Type.Array(Type.Union([GuardrailId, OutputGuardrail])),
  }),
  headers: true,
  values: {
    input_guardrails: guardrailItems(InputGuardrail),
    output_guardrails: guardrailItems(OutputGuardrail),
  },
  groups: [['after_request_hooks'], ['before_request_hooks'], ['input_guardrails'], ['output_guardrails']],
};
