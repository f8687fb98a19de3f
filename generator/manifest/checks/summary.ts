import { deriveNames } from '../../ir/names.js';
import type { RawCommon } from '../types.js';
import { parseUriTemplate } from '../uri-template.js';
import type { Entry, EntrySummary } from './context.js';

/** What the checks that compare entries read of one entry (see `EntrySummary`). */
export function summarise(e: Entry): EntrySummary {
  const { id, typeBase } = deriveNames(e.name);
  const p: RawCommon = e.value;
  const base = { section: e.section, name: e.name, id, typeBase, ...(p.renamedFrom !== undefined ? { renamedFrom: p.renamedFrom } : {}), scopes: p.scopes ?? [] };
  if (e.section === 'resources') {
    const r = e.value;
    return {
      ...base,
      ...(r.uri !== undefined ? { uri: r.uri } : {}),
      ...(r.uriTemplate !== undefined ? { uriTemplate: r.uriTemplate } : {}),
      ...(r.subscribe === true ? { subscribe: true } : {}),
      ...(r.uriTemplate !== undefined ? { variables: [...parseUriTemplate(r.uriTemplate).variables] } : {}),
    };
  }
  if (e.section === 'prompts') {
    const embeds = (e.value.messages ?? []).flatMap((m, i): [number, string][] => (m.resource !== undefined ? [[i, m.resource]] : []));
    return { ...base, args: Object.keys(e.value.arguments ?? {}), embeds };
  }
  return base;
}
