/**
 * Switching primitives off and on while serving: the rollback switch. A
 * switched-off primitive is taken out of the process's shared registry, so
 * every connection sees it exactly as a primitive the server never had: absent
 * from listings, and a call, read or get of it refused by the SDK as unknown
 * (`Tool X not found`, resource not found, `Prompt X not found`). Switching it
 * on puts it back where it was in the listing. Each change sends the kind's
 * list-changed notification to the connections that may receive it, when the
 * server declares `listChanged` for that kind. The switch is per process:
 * replicas are switched one by one (docs/deploy.md).
 */
import type { Catalog, PrimitiveRef, Runtime } from './context.js';
import type { SharedRegistry } from './shared.js';

/** A primitive named by kind and manifest name. */
export type PrimitiveKind = PrimitiveRef['kind'];

const KINDS: readonly PrimitiveKind[] = ['tool', 'resource', 'prompt'];

/** Every primitive of `catalog` as `kind:name`, in manifest order. */
export function primitiveRefs(catalog: Catalog): string[] {
  return [...catalog.tools.map((t) => `tool:${t.name}`), ...catalog.resources.map((r) => `resource:${r.name}`), ...catalog.prompts.map((p) => `prompt:${p.name}`)];
}

/**
 * Resolves `entry` (`tool:NAME`, `resource:NAME`, `prompt:NAME`, or a bare NAME that only one primitive
 * has) against `catalog`. An unknown or ambiguous entry throws an error naming the valid choices.
 */
export function resolvePrimitive(catalog: Catalog, entry: string): PrimitiveRef {
  const all = primitiveRefs(catalog);
  const colon = entry.indexOf(':');
  const kind = colon > 0 ? entry.slice(0, colon) : '';
  if ((KINDS as readonly string[]).includes(kind)) {
    if (all.includes(entry)) return { kind: kind as PrimitiveKind, name: entry.slice(colon + 1) };
  } else {
    const matches = all.filter((ref) => ref.slice(ref.indexOf(':') + 1) === entry);
    if (matches.length === 1) return { kind: matches[0]!.slice(0, matches[0]!.indexOf(':')) as PrimitiveKind, name: entry };
    if (matches.length > 1) throw new Error(`'${entry}' is ambiguous: it names ${matches.join(' and ')}; write one of those.`);
  }
  const choices = all.length === 0 ? 'this server has no primitives' : `valid entries: ${all.join(', ')}`;
  throw new Error(`'${entry}' names no primitive of this server (entries are tool:NAME, resource:NAME, prompt:NAME, or a NAME only one primitive has); ${choices}`);
}

/** Splits an `MCP_DISABLE` value (comma- or whitespace-separated entries). */
export function disableEntries(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

type Registry = Record<string, unknown>;

interface Slot {
  readonly field: '_registeredTools' | '_registeredPrompts' | '_registeredResources' | '_registeredResourceTemplates';
  readonly key: string;
}


/** Switches the primitives of one shared registry off and on. */
export class PrimitiveSwitch {
  /** Registry keys in registration order, taken before the first change, so a primitive switched on returns to its place. */
  private readonly order = new Map<Slot['field'], string[]>();
  private readonly stash = new Map<string, unknown>();

  constructor(private readonly registry: SharedRegistry) {}

  private get rt(): Runtime {
    return this.registry.rt;
  }

  /** The primitives switched off now, as `kind:name`. */
  disabled(): string[] {
    return [...this.rt.disabled];
  }

  /** Switches `entry` off (see {@link resolvePrimitive}); false when it already was. */
  disable(entry: string): boolean {
    const ref = resolvePrimitive(this.rt.catalog, entry);
    const id = `${ref.kind}:${ref.name}`;
    if (this.rt.disabled.has(id)) return false;
    const slot = this.slotOf(ref);
    const table = this.table(slot.field);
    this.remember(slot.field, table);
    this.stash.set(id, table[slot.key]);
    delete table[slot.key];
    this.rt.disabled.add(id);
    this.announce(ref.kind);
    return true;
  }

  /** Switches `entry` back on; false when it was not off. */
  enable(entry: string): boolean {
    const ref = resolvePrimitive(this.rt.catalog, entry);
    const id = `${ref.kind}:${ref.name}`;
    if (!this.rt.disabled.has(id)) return false;
    const slot = this.slotOf(ref);
    const table = this.table(slot.field);
    const entries = new Map(Object.entries(table));
    entries.set(slot.key, this.stash.get(id));
    // Rebuilt in registration order: the listing is the same as before the primitive went off.
    for (const key of Object.keys(table)) delete table[key];
    for (const key of this.order.get(slot.field) ?? []) if (entries.has(key)) table[key] = entries.get(key);
    this.stash.delete(id);
    this.rt.disabled.delete(id);
    this.announce(ref.kind);
    return true;
  }

  private table(field: Slot['field']): Registry {
    return (this.registry.template as unknown as Record<string, Registry>)[field]!;
  }

  private remember(field: Slot['field'], table: Registry): void {
    if (!this.order.has(field)) this.order.set(field, Object.keys(table));
  }

  private slotOf(ref: PrimitiveRef): Slot {
    if (ref.kind === 'tool') return { field: '_registeredTools', key: ref.name };
    if (ref.kind === 'prompt') return { field: '_registeredPrompts', key: ref.name };
    const spec = this.rt.catalog.resources.find((r) => r.name === ref.name)!;
    return spec.uri !== undefined ? { field: '_registeredResources', key: spec.uri } : { field: '_registeredResourceTemplates', key: ref.name };
  }

  private announce(kind: PrimitiveKind): void {
    this.registry.announce(kind);
  }
}



const switches = new WeakMap<SharedRegistry, PrimitiveSwitch>();

/** The switch of `registry` (one per registry, so every host of the process flips the same state). */
export function primitiveSwitch(registry: SharedRegistry): PrimitiveSwitch {
  let found = switches.get(registry);
  if (found === undefined) {
    found = new PrimitiveSwitch(registry);
    switches.set(registry, found);
  }
  return found;
}

/** What a running host offers to switch primitives off and on (see {@link PrimitiveSwitch}). */
export interface PrimitiveSwitches {
  /**
   * Switches a primitive off for every connection of this process: `tool:NAME`, `resource:NAME`,
   * `prompt:NAME`, or a bare NAME only one primitive has. False when it was off already; an unknown or
   * ambiguous entry throws, naming the valid entries.
   */
  disable(entry: string): boolean;
  /** Switches a primitive back on (same entries); false when it was not off. */
  enable(entry: string): boolean;
  /** The primitives switched off now, as `kind:name`. */
  disabled(): string[];
}

/** The switches of the registry `now()` gives; a server whose registrations are not shared has none. */
export function switchesOf(now: () => SharedRegistry | undefined): PrimitiveSwitches {
  const get = (): PrimitiveSwitch => {
    const registry = now();
    if (!registry) throw new Error('mcp-gen: primitives can be switched off only on a server built by a generated createServer and hosted with shared instances (not `instances: per-request`)');
    return primitiveSwitch(registry);
  };
  return { disable: (entry) => get().disable(entry), enable: (entry) => get().enable(entry), disabled: () => now() ? get().disabled() : [] };
}
