/** What rate and usage limits share: conditions and group_by, edited as JSON. */
import { JsonInput, parseJson } from '../../parts/inputs';

export interface Condition {
  key: string;
  value: string | string[];
  excludes?: string | string[];
}

export interface Policy {
  id: string;
  name: string | null;
  conditions: Condition[];
  group_by: { key: string }[];
  workspace_id: string;
}

export const EXAMPLE_CONDITIONS: Condition[] = [{ key: 'metadata.team', value: 'research' }];
export const EXAMPLE_GROUP_BY = [{ key: 'api_key' }];

export function conditionsText(conditions: Condition[]): string {
  return conditions.map((c) => `${c.key} = ${[c.value].flat().join(' | ')}${c.excludes ? ` (not ${[c.excludes].flat().join(' | ')})` : ''}`).join('; ');
}

export function ScopeFields(props: { conditions: string; groupBy: string; setConditions(v: string): void; setGroupBy(v: string): void }) {
  return (
    <>
      <JsonInput label="Conditions" value={props.conditions} onInput={props.setConditions} rows={4}
        hint='Which requests it counts (all must match): keys workspace_id, endpoint_type, api_key, metadata.<key>; "*" matches any value.' />
      <JsonInput label="Group by" value={props.groupBy} onInput={props.setGroupBy} rows={2}
        hint="One counter per distinct value of: api_key, workspace_id, metadata.<key>, jwt.<claim>." />
    </>
  );
}

export function scopeBody(conditions: string, groupBy: string) {
  return { conditions: parseJson('Conditions', conditions), group_by: parseJson('Group by', groupBy) };
}
