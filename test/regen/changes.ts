/**
 * Random manifest changes (add, remove, rename with `renamedFrom`, schema
 * changes, `list`/`complete`/`messages` toggles) and the verdict whether the
 * author's handler code, as recorded in `Uses`, still type-checks after them.
 */
import { type Rng, type Uses, objLiteralCompatible, readCompatible } from './author.js';
import { ENUM_VALUES, type Model, type Obj, PROP_NAMES, type PType, type Primitive, type Prompt, type Prop, type Resource, type Tool, VAR_NAMES, WORDS, idOf, needsHandler } from './model.js';

/** `kind:name` of a primitive. */
export const keyOf = (p: Pick<Primitive, 'kind' | 'name'>): string => `${p.kind}:${p.name}`;

export function randomType(rng: Rng, depth: number): PType {
  const r = rng.int(0, depth > 0 ? 6 : 5);
  if (r <= 1) return { t: 'string' };
  if (r === 2) return { t: 'integer' };
  if (r === 3) return { t: 'boolean' };
  if (r === 4) return { t: 'enum', values: [...new Set([rng.pick(ENUM_VALUES), rng.pick(ENUM_VALUES)])] };
  if (r === 5) return { t: 'array', items: randomType(rng, -1) };
  return { t: 'object', obj: randomObj(rng, depth - 1) };
}

export function randomObj(rng: Rng, depth: number): Obj {
  const names = [...new Set(Array.from({ length: rng.int(0, 3) }, () => rng.pick(PROP_NAMES)))];
  return { props: names.map((name) => ({ name, type: randomType(rng, depth), required: rng.bool() })), closed: rng.bool(0.75) };
}

/** The state a case carries from round to round. */
export interface CaseState {
  model: Model;
  /** What handler bodies assume, by `kind:name`. */
  uses: Map<string, Uses>;
  /** `kind:id` of every name ever used, so names are never reused. */
  usedIds: Set<string>;
}

function freshName(rng: Rng, kind: Primitive['kind'], used: Set<string>): string {
  for (;;) {
    const name = rng.bool(0.3) ? `${rng.pick(WORDS)}${rng.pick(['.', '_', '-'])}${rng.pick(WORDS)}${rng.int(2, 99)}` : `${rng.pick(WORDS)}${rng.pick(['.', '_', '-'])}${rng.pick(WORDS)}`;
    if (!used.has(`${kind}:${idOf(name)}`)) {
      used.add(`${kind}:${idOf(name)}`);
      return name;
    }
  }
}

type Section = 'tools' | 'resources' | 'prompts';
const sectionOf = { tool: 'tools', resource: 'resources', prompt: 'prompts' } as const;

function replaceIn(m: Model, old: Primitive, next: Primitive | undefined): Model {
  const s: Section = sectionOf[old.kind];
  const list = (m[s] as readonly Primitive[]).flatMap((p) => (p === old ? (next ? [next] : []) : [p]));
  return { ...m, [s]: list };
}

/** Applies `f` to one property chosen among those `pick` accepts, anywhere at the top level of `o`. */
function mapProp(o: Obj, rng: Rng, pick: (p: Prop) => boolean, f: (p: Prop) => Prop | undefined): Obj | undefined {
  const candidates = o.props.filter(pick);
  if (candidates.length === 0) return undefined;
  const target = rng.pick(candidates);
  return { ...o, props: o.props.flatMap((p) => (p === target ? (f(p) ? [f(p)!] : []) : [p])) };
}

/** Adds a value to one enum anywhere in `o` (nested objects and arrays included). */
function growEnum(o: Obj, rng: Rng): Obj | undefined {
  const paths: number[][] = [];
  const walkT = (t: PType, path: number[]): void => {
    if (t.t === 'enum' && t.values.length < ENUM_VALUES.length) paths.push(path);
    if (t.t === 'array') walkT(t.items, [...path, -1]);
    if (t.t === 'object') t.obj.props.forEach((p, i) => walkT(p.type, [...path, i]));
  };
  o.props.forEach((p, i) => walkT(p.type, [i]));
  if (paths.length === 0) return undefined;
  const path = rng.pick(paths);
  const value = rng.pick(ENUM_VALUES);
  const setT = (t: PType, rest: number[]): PType => {
    if (rest.length === 0) return t.t === 'enum' && !t.values.includes(value) ? { t: 'enum', values: [...t.values, value] } : t;
    if (t.t === 'array') return { t: 'array', items: setT(t.items, rest.slice(1)) };
    if (t.t === 'object') return { t: 'object', obj: setObj(t.obj, rest) };
    return t;
  };
  const setObj = (ob: Obj, rest: number[]): Obj => ({ ...ob, props: ob.props.map((p, i) => (i === rest[0] ? { ...p, type: setT(p.type, rest.slice(1)) } : p)) });
  return setObj(o, path);
}

interface Op {
  readonly name: string;
  /** Likely to keep handler code valid (the verdict is computed afterwards by `compatible`). */
  readonly safe: boolean;
  readonly apply: (s: CaseState, rng: Rng) => string | undefined;
}

const some = <T>(rng: Rng, items: readonly T[]): T | undefined => (items.length ? rng.pick(items) : undefined);

function toolOp(name: string, safe: boolean, f: (t: Tool, s: CaseState, rng: Rng) => Tool | undefined): Op {
  return {
    name,
    safe,
    apply: (s, rng) => {
      const t = some(rng, s.model.tools);
      if (!t) return undefined;
      const next = f(t, s, rng);
      if (!next) return undefined;
      s.model = replaceIn(s.model, t, next);
      return `${name} on tool ${t.name}`;
    },
  };
}

const reads = (s: CaseState, p: Primitive): Map<string, unknown> => s.uses.get(keyOf(p))?.reads ?? new Map();

const OPS: readonly Op[] = [
  {
    name: 'add tool',
    safe: true,
    apply: (s, rng) => {
      const t: Tool = { kind: 'tool', name: freshName(rng, 'tool', s.usedIds), sideEffect: rng.pick(['read', 'write', 'irreversible'] as const), ...(rng.bool(0.8) ? { input: randomObj(rng, 2) } : {}), ...(rng.bool(0.5) ? { output: randomObj(rng, 1) } : {}) };
      s.model = { ...s.model, tools: [...s.model.tools, t] };
      return `added tool ${t.name}`;
    },
  },
  {
    name: 'add resource',
    safe: true,
    apply: (s, rng) => {
      const vars = rng.bool(0.6) ? [...new Set([rng.pick(VAR_NAMES), rng.pick(VAR_NAMES)])] : [];
      const r: Resource = { kind: 'resource', name: freshName(rng, 'resource', s.usedIds), vars, list: vars.length > 0 && rng.bool(), complete: rng.subset(vars) };
      s.model = { ...s.model, resources: [...s.model.resources, r] };
      return `added resource ${r.name}`;
    },
  },
  {
    name: 'add prompt',
    safe: true,
    apply: (s, rng) => {
      const names = [...new Set(Array.from({ length: rng.int(0, 3) }, () => rng.pick(['topic', 'query', 'level', 'name', 'count', 'page_size'])))];
      const p: Prompt = { kind: 'prompt', name: freshName(rng, 'prompt', s.usedIds), args: names.map((name) => ({ name, required: rng.bool(), complete: rng.bool(0.3), type: 'string' as const })), messages: rng.bool() };
      s.model = { ...s.model, prompts: [...s.model.prompts, p] };
      return `added prompt ${p.name}`;
    },
  },
  {
    name: 'rename',
    safe: true,
    apply: (s, rng) => {
      const p = some(rng, [...s.model.tools, ...s.model.resources, ...s.model.prompts]);
      if (!p) return undefined;
      const name = freshName(rng, p.kind, s.usedIds);
      const next = { ...p, name, renamedFrom: p.name } as Primitive;
      s.model = replaceIn(s.model, p, next);
      const u = s.uses.get(keyOf(p));
      if (u) s.uses.set(keyOf(next), u), s.uses.delete(keyOf(p));
      return `renamed ${p.kind} ${p.name} to ${name} (renamedFrom)`;
    },
  },
  {
    name: 'drop renamedFrom',
    safe: true,
    apply: (s, rng) => {
      const p = some(rng, [...s.model.tools, ...s.model.resources, ...s.model.prompts].filter((q) => q.renamedFrom !== undefined));
      if (!p) return undefined;
      const { renamedFrom: _, ...rest } = p;
      s.model = replaceIn(s.model, p, rest as Primitive);
      return `dropped renamedFrom of ${p.kind} ${p.name}`;
    },
  },
  toolOp('side effect change', true, (t, _s, rng) => ({ ...t, sideEffect: rng.pick(['read', 'write', 'irreversible'] as const) })),
  toolOp('add optional input property', true, (t, _s, rng) => {
    const input = t.input ?? { props: [], closed: true };
    const name = rng.pick(PROP_NAMES.filter((n) => !input.props.some((p) => p.name === n)));
    return { ...t, input: { ...input, props: [...input.props, { name, type: randomType(rng, 1), required: false }] } };
  }),
  toolOp('add required input property', true, (t, _s, rng) => {
    const input = t.input ?? { props: [], closed: true };
    const name = rng.pick(PROP_NAMES.filter((n) => !input.props.some((p) => p.name === n)));
    return { ...t, input: { ...input, props: [...input.props, { name, type: randomType(rng, 1), required: true }] } };
  }),
  toolOp('remove an unused input property', true, (t, s, rng) => {
    const used = reads(s, t);
    const input = t.input && mapProp(t.input, rng, (p) => !used.has(p.name), () => undefined);
    return input && { ...t, input };
  }),
  toolOp('retype an unused input property', true, (t, s, rng) => {
    const used = reads(s, t);
    const input = t.input && mapProp(t.input, rng, (p) => !used.has(p.name), (p) => ({ ...p, type: randomType(rng, 1) }));
    return input && { ...t, input };
  }),
  toolOp('make an input property required', true, (t, _s, rng) => {
    const input = t.input && mapProp(t.input, rng, (p) => !p.required, (p) => ({ ...p, required: true }));
    return input && { ...t, input };
  }),
  toolOp('add an enum value', true, (t, _s, rng) => {
    if (rng.bool() && t.input) {
      const input = growEnum(t.input, rng);
      if (input) return { ...t, input };
    }
    const output = t.output && growEnum(t.output, rng);
    return output && { ...t, output };
  }),
  toolOp('add optional output property', true, (t, _s, rng) => {
    if (!t.output) return undefined;
    const name = rng.pick(PROP_NAMES.filter((n) => !t.output!.props.some((p) => p.name === n)));
    return { ...t, output: { ...t.output, props: [...t.output.props, { name, type: randomType(rng, 1), required: false }] } };
  }),
  toolOp('add input schema', true, (t, _s, rng) => (t.input ? undefined : { ...t, input: randomObj(rng, 1) })),
  {
    name: 'add list',
    safe: true,
    apply: (s, rng) => {
      const r = some(rng, s.model.resources.filter((x) => x.vars.length > 0 && !x.list));
      if (!r) return undefined;
      s.model = replaceIn(s.model, r, { ...r, list: true });
      return `added list to resource ${r.name}`;
    },
  },
  {
    name: 'add complete',
    safe: true,
    apply: (s, rng) => {
      const r = some(rng, s.model.resources.filter((x) => x.vars.some((v) => !x.complete.includes(v))));
      const p = some(rng, s.model.prompts.filter((x) => x.args.some((a) => a.type === 'string' && !a.complete)));
      if (r && (!p || rng.bool())) {
        const v = rng.pick(r.vars.filter((x) => !r.complete.includes(x)));
        s.model = replaceIn(s.model, r, { ...r, complete: [...r.complete, v] });
        return `added complete ${v} to resource ${r.name}`;
      }
      if (!p) return undefined;
      const a = rng.pick(p.args.filter((x) => x.type === 'string' && !x.complete));
      s.model = replaceIn(s.model, p, { ...p, args: p.args.map((x) => (x === a ? { ...x, complete: true } : x)) });
      return `added complete to argument ${a.name} of prompt ${p.name}`;
    },
  },
  {
    name: 'add prompt argument',
    safe: true,
    apply: (s, rng) => {
      const p = some(rng, s.model.prompts);
      const name = p && some(rng, ['topic', 'query', 'level', 'name', 'count', 'limit', 'page_size'].filter((n) => !p.args.some((a) => a.name === n)));
      if (!p || !name) return undefined;
      s.model = replaceIn(s.model, p, { ...p, args: [...p.args, { name, required: rng.bool(), complete: false, type: rng.pick(['string', 'integer', 'boolean'] as const) }] });
      return `added argument ${name} to prompt ${p.name}`;
    },
  },
  {
    name: 'drop prompt messages',
    safe: true,
    apply: (s, rng) => {
      const p = some(rng, s.model.prompts.filter((x) => x.messages));
      if (!p) return undefined;
      s.model = replaceIn(s.model, p, { ...p, messages: false });
      return `removed messages of prompt ${p.name} (it needs get now)`;
    },
  },
  // Changes that may break handler code.
  {
    name: 'remove primitive',
    safe: false,
    apply: (s, rng) => {
      const p = some(rng, [...s.model.tools.length > 1 ? s.model.tools : [], ...s.model.resources, ...s.model.prompts]);
      if (!p) return undefined;
      s.model = replaceIn(s.model, p, undefined);
      return `removed ${p.kind} ${p.name}`;
    },
  },
  {
    name: 'rename without renamedFrom',
    safe: false,
    apply: (s, rng) => {
      const p = some(rng, [...s.model.tools, ...s.model.resources, ...s.model.prompts]);
      if (!p) return undefined;
      const { renamedFrom: _, ...rest } = p;
      const next = { ...rest, name: freshName(rng, p.kind, s.usedIds) } as Primitive;
      s.model = replaceIn(s.model, p, next);
      s.uses.delete(keyOf(p));
      return `renamed ${p.kind} ${p.name} to ${next.name} without renamedFrom`;
    },
  },
  toolOp('remove an input property', false, (t, _s, rng) => {
    const input = t.input && mapProp(t.input, rng, () => true, () => undefined);
    return input && { ...t, input };
  }),
  toolOp('retype an input property', false, (t, _s, rng) => {
    const input = t.input && mapProp(t.input, rng, () => true, (p) => ({ ...p, type: randomType(rng, 1) }));
    return input && { ...t, input };
  }),
  toolOp('make an input property optional', false, (t, _s, rng) => {
    const input = t.input && mapProp(t.input, rng, (p) => p.required, (p) => ({ ...p, required: false }));
    return input && { ...t, input };
  }),
  toolOp('add required output property', false, (t, _s, rng) => {
    const output = t.output ?? { props: [], closed: true };
    const name = rng.pick(PROP_NAMES.filter((n) => !output.props.some((p) => p.name === n)));
    return { ...t, output: { ...output, props: [...output.props, { name, type: randomType(rng, 0), required: true }] } };
  }),
  toolOp('remove an output property', false, (t, _s, rng) => {
    const output = t.output && mapProp(t.output, rng, () => true, () => undefined);
    return output && { ...t, output };
  }),
  toolOp('remove output', false, (t) => (t.output ? (({ output: _, ...rest }) => rest)(t) : undefined)),
  {
    name: 'remove list or complete',
    safe: false,
    apply: (s, rng) => {
      const r = some(rng, s.model.resources.filter((x) => x.list || x.complete.length));
      if (r && (r.list && rng.bool() || r.complete.length === 0)) {
        s.model = replaceIn(s.model, r, { ...r, list: false });
        return `removed list from resource ${r.name}`;
      }
      if (r) {
        const v = rng.pick(r.complete);
        s.model = replaceIn(s.model, r, { ...r, complete: r.complete.filter((x) => x !== v) });
        return `removed complete ${v} from resource ${r.name}`;
      }
      const p = some(rng, s.model.prompts.filter((x) => x.args.some((a) => a.complete)));
      if (!p) return undefined;
      const a = rng.pick(p.args.filter((x) => x.complete));
      s.model = replaceIn(s.model, p, { ...p, args: p.args.map((x) => (x === a ? { ...x, complete: false } : x)) });
      return `removed complete from argument ${a.name} of prompt ${p.name}`;
    },
  },
  {
    name: 'add prompt messages',
    safe: false,
    apply: (s, rng) => {
      const p = some(rng, s.model.prompts.filter((x) => !x.messages));
      if (!p) return undefined;
      s.model = replaceIn(s.model, p, { ...p, messages: true });
      return `added messages to prompt ${p.name}`;
    },
  },
  {
    name: 'change prompt argument',
    safe: false,
    apply: (s, rng) => {
      const p = some(rng, s.model.prompts.filter((x) => x.args.length));
      if (!p) return undefined;
      const a = rng.pick(p.args);
      const next = rng.bool() ? p.args.filter((x) => x !== a) : p.args.map((x) => (x === a ? { ...x, type: rng.pick(['integer', 'boolean'] as const), complete: false, required: !x.required } : x));
      s.model = replaceIn(s.model, p, { ...p, args: next });
      return `changed or removed argument ${a.name} of prompt ${p.name}`;
    },
  },
];

/** Applies 1–4 random changes; in `safe` mode only those meant to keep handlers compiling. */
export function changeManifest(s: CaseState, rng: Rng, safe: boolean): string[] {
  const ops = OPS.filter((o) => !safe || o.safe);
  const out: string[] = [];
  for (let n = rng.int(1, 4), tries = 0; out.length < n && tries < 40; tries++) {
    const d = rng.pick(ops).apply(s, rng);
    if (d) out.push(d);
  }
  return out;
}

/** The primitive `p` (of the model before a change) became in `next`, following `renamedFrom`. */
export function successor(p: Primitive, next: Model): Primitive | undefined {
  const all: Primitive[] = [...next.tools, ...next.resources, ...next.prompts];
  return all.find((q) => q.kind === p.kind && q.name === p.name) ?? all.find((q) => q.kind === p.kind && q.renamedFrom === p.name);
}

/**
 * Whether the handler code of every primitive of `before` still compiles
 * against the types generated from `after`, given what each body assumes.
 * A primitive whose handler file is left behind (removed, or no longer
 * needing one) is not compatible: its file refers to a type that is gone.
 */
export function compatible(before: Model, after: Model, uses: ReadonlyMap<string, Uses>, hadFile: (p: Primitive) => boolean): string | undefined {
  for (const p of [...before.tools, ...before.resources, ...before.prompts]) {
    if (!hadFile(p)) continue;
    const q = successor(p, before === after ? before : after);
    if (!q || !needsHandler(q)) return `${p.kind} ${p.name} left its handler behind`;
    if (q.name !== p.name && q.renamedFrom !== p.name) return `${p.kind} ${p.name} renamed without renamedFrom`;
    const u = uses.get(keyOf(q)) ?? uses.get(keyOf(p));
    if (p.kind === 'tool' && q.kind === 'tool') {
      for (const [name, r] of u?.reads ?? []) {
        const np = q.input?.props.find((x) => x.name === name);
        if (!np || !readCompatible(r.type, np.type) || (r.required && !np.required)) return `tool ${q.name} reads ${name}`;
      }
      if (u?.output?.kind === 'object' && (!q.output || !objLiteralCompatible(u.output.included, q.output))) return `tool ${q.name} returns an object that no longer fits`;
      if (u?.output?.kind === 'text' && q.output) return `tool ${q.name} returns text but has an output schema now`;
    } else if (p.kind === 'resource' && q.kind === 'resource') {
      if (p.vars.join() !== q.vars.join()) return `resource ${q.name} changed its variables`;
      if (p.list && !q.list) return `resource ${q.name} lost list`;
      if (p.complete.some((v) => !q.complete.includes(v))) return `resource ${q.name} lost a completer`;
    } else if (p.kind === 'prompt' && q.kind === 'prompt') {
      if (!p.messages && q.messages) return `prompt ${q.name} has a get it no longer needs`;
      if (p.args.some((a) => a.complete && !q.args.some((b) => b.name === a.name && b.complete))) return `prompt ${q.name} lost a completer`;
      for (const [name, r] of u?.reads ?? []) {
        const a = q.args.find((x) => x.name === name);
        if (!a || a.type !== (r.type.t as string) || (r.required && !a.required)) return `prompt ${q.name} reads ${name}`;
      }
    }
  }
  return undefined;
}
