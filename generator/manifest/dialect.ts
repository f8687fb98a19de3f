/** JSON Schema dialects the generator accepts; 2020-12 is the default and what MCP requires. */
export type Dialect = '2020-12' | '2019-09' | 'draft-07';

const DIALECTS: Record<string, Dialect> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
};

/**
 * The dialect named by a `$schema` value: absent means 2020-12; undefined
 * means unsupported (draft-04, draft-06, unknown URIs).
 */
export function dialectOf($schema: unknown): Dialect | undefined {
  if ($schema === undefined) return '2020-12';
  if (typeof $schema !== 'string') return undefined;
  const key = $schema.replace(/^https?:\/\//, '').replace(/#$/, '');
  return DIALECTS[key];
}

/** The hint for an unsupported `$schema`. */
export const DIALECT_HINT =
  'remove `$schema` (2020-12 is the default) or use https://json-schema.org/draft/2020-12/schema; 2019-09 and draft-07 are also accepted, draft-04/06 are not';
