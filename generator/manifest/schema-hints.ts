/**
 * JSON Schema mistakes a manifest author makes often, recognised where the meta-schema only says
 * "must be array" or "must be object,boolean": `required: true` on a property (JSON Schema lists required
 * properties on the object), a bare type name where a schema belongs (`isbn: string`), one string where a
 * list belongs (`required: isbn`, `enum: a, b`) and a `- ` list of properties.
 */

/** A better message and hint for an invalid schema, or undefined when the mistake is not a known one. */
export interface SchemaHint {
  readonly message: string;
  readonly hint: string;
}

const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

function valueAt(schema: unknown, path: readonly (string | number)[]): unknown {
  let v = schema;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** Explains the problem at `path` (inside `schema`), if it is a known mistake. */
export function schemaHint(schema: unknown, path: readonly (string | number)[]): SchemaHint | undefined {
  const value = valueAt(schema, path);
  const last = path[path.length - 1];
  const parentKey = path[path.length - 2];
  if (last === 'required' && typeof value === 'boolean' && path[path.length - 3] === 'properties') {
    const name = String(path[path.length - 2]);
    return {
      message: `\`required: ${String(value)}\` inside property \`${name}\`: in JSON Schema, \`required\` is a list on the object, not a flag on a property`,
      hint: value ? `remove it here and list the property on the object that holds it: \`required: [${name}]\`` : 'remove it: a property is optional unless the object lists it in `required`',
    };
  }
  if (typeof value === 'string' && parentKey === 'properties' && typeof last === 'string') {
    const type = TYPE_NAMES.includes(value) ? value : undefined;
    return {
      message: `property \`${last}\` is \`${value}\`, which is not a schema: a property's value is a schema object`,
      hint: type ? `write \`${last}: { type: ${type} }\`` : `write a schema, for example \`${last}: { type: string }\``,
    };
  }
  if ((last === 'required' || last === 'enum') && typeof value === 'string') {
    // `required: isbn` or `enum: a, b`: YAML read one string where JSON Schema wants a list.
    const items = value.split(',').map((x) => x.trim()).filter((x) => x !== '');
    return {
      message: `\`${last}: ${value}\` is one string, and \`${last}\` is a list`,
      hint: `write it as a list in brackets: \`${last}: [${items.join(', ')}]\``,
    };
  }
  if (last === 'properties' && Array.isArray(value)) {
    return {
      message: '`properties` is a list, and JSON Schema maps each property name to its schema',
      hint: 'drop the `- ` before each property, for example `properties: { isbn: { type: string } }`',
    };
  }
  return undefined;
}
