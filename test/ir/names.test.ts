import { describe, expect, it } from 'vitest';
import { recursionSlotName, typeName, typeSuffix } from '../../generator/ir/names.js';

describe('the slot of a recursive local reference', () => {
  it('is the PascalCase of the last segment, with the documented fallbacks', () => {
    const none = new Set<string>();
    expect(recursionSlotName('#/$defs/tree_node', none)).toBe('TreeNode');
    expect(recursionSlotName('#/definitions/a~1b~0c', none)).toBe('ABC');
    expect(recursionSlotName('#', none)).toBe('Self');
    expect(recursionSlotName('#/$defs/2d', none)).toBe('N2d');
    expect(recursionSlotName('#/$defs/--', none)).toBe('Def');
  });

  it('numbers a second and third reference whose segments read alike, deterministically', () => {
    expect(recursionSlotName('#/definitions/node', new Set(['Node']))).toBe('Node2');
    expect(recursionSlotName('#/properties/node', new Set(['Node', 'Node2']))).toBe('Node3');
  });
});

describe('typeName', () => {
  it('names every role typeSuffix lists, as the primitive type base followed by the role suffix', () => {
    expect(Object.keys(typeName).sort()).toEqual(Object.keys(typeSuffix).sort());
    for (const role of Object.keys(typeSuffix) as (keyof typeof typeSuffix)[]) expect(typeName[role]({ typeBase: 'TicketsGet' })).toBe(`TicketsGet${typeSuffix[role]}`);
    expect(typeName.toolInput({ typeBase: 'TicketsGet' })).toBe('TicketsGetInput');
  });
});
