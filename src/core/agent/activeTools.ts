/**
 * The tools in flight, as a persistent (immutable) map keyed by tool id, in start order.
 *
 * Why not an array copied on every change: an agent can have thousands of tools open (a runaway
 * loop, a hostile transcript), and copying them all on each start made reading such a transcript
 * quadratic (20,000 open tools: ~30 s). Here each `with`/`without` is O(1) for the usual caller,
 * which only ever extends the newest version; an older version stays valid and unchanged.
 *
 * How: Baker's "rerooting" trick. All versions share one mutable Map, held by the newest one (the
 * root). Every other version holds the one difference between itself and the version it was made
 * into, pointing towards the root. Reading an old version walks that chain and turns the
 * differences around, so that version becomes the root. Entries carry their start sequence so
 * the order survives this (re-inserting into a Map appends).
 */

export interface ActiveTool {
  id: string;
  name: string;
  label: string;
  action: string;
  parent: string | null;
  startedAt?: number;
  /** A background sub-agent: keeps running after its parent turn ends. */
  background: boolean;
}

interface Entry {
  tool: ActiveTool;
  seq: number;
}

export class ActiveTools implements Iterable<ActiveTool> {
  static readonly empty = new ActiveTools(new Map(), 0, 0);

  private listed: readonly ActiveTool[] | undefined;
  /**
   * The root holds the Map; any other version holds one difference (`id` → `entry`, undefined:
   * absent) and points towards the root (`next`). Each version is its own node: one object per
   * change, not two (a change per tool start and end).
   */
  private map: Map<string, Entry> | undefined;
  private id = "";
  private entry: Entry | undefined;
  private next: ActiveTools | undefined;

  private constructor(
    map: Map<string, Entry>,
    readonly size: number,
    private readonly nextSeq: number,
  ) {
    this.map = map;
  }

  static of(tools: Iterable<ActiveTool>): ActiveTools {
    let set = ActiveTools.empty;
    for (const tool of tools) set = set.with(tool);
    return set;
  }

  get(id: string): ActiveTool | undefined {
    return ActiveTools.reroot(this).get(id)?.tool;
  }

  has(id: string): boolean {
    return ActiveTools.reroot(this).has(id);
  }

  /** Adds a tool, or replaces the one with its id (which keeps its place). */
  with(tool: ActiveTool): ActiveTools {
    const previous = ActiveTools.reroot(this).get(tool.id);
    const entry: Entry = { tool, seq: previous?.seq ?? this.nextSeq };
    return this.change(tool.id, previous, entry, previous ? this.size : this.size + 1);
  }

  /** Adds a tool unless one with its id is there already: then this version, unchanged. */
  withNew(tool: ActiveTool): ActiveTools {
    if (ActiveTools.reroot(this).has(tool.id)) return this;
    return this.change(tool.id, undefined, { tool, seq: this.nextSeq }, this.size + 1);
  }

  without(id: string): ActiveTools {
    const previous = ActiveTools.reroot(this).get(id);
    return previous ? this.change(id, previous, undefined, this.size - 1) : this;
  }

  /** In start order. Built once per version (versions never change). */
  list(): readonly ActiveTool[] {
    if (!this.listed) {
      const entries = [...ActiveTools.reroot(this).values()];
      // Already in order unless an older version was read since (then entries were re-inserted).
      entries.sort((a, b) => a.seq - b.seq);
      this.listed = Object.freeze(entries.map((e) => e.tool));
    }
    return this.listed;
  }

  /** In no particular order, without building the ordered list (a question about any tool). */
  *unordered(): IterableIterator<ActiveTool> {
    for (const entry of ActiveTools.reroot(this).values()) yield entry.tool;
  }

  [Symbol.iterator](): Iterator<ActiveTool> {
    return this.list()[Symbol.iterator]();
  }

  /**
   * Rerooting: makes `version` the root (the holder of the Map) by walking its chain of differences
   * to the current root and turning each one around.
   */
  private static reroot(version: ActiveTools): Map<string, Entry> {
    if (version.map) return version.map; // the newest version: the usual case, O(1)
    const path: ActiveTools[] = [];
    for (let v: ActiveTools = version; v.next; v = v.next) path.push(v);
    let map = (path.at(-1)?.next as ActiveTools).map as Map<string, Entry>;
    for (let i = path.length - 1; i >= 0; i--) {
      const v = path[i] as ActiveTools;
      const root = v.next as ActiveTools;
      map = root.map as Map<string, Entry>;
      const previous = map.get(v.id);
      if (v.entry) map.set(v.id, v.entry);
      else map.delete(v.id);
      // The old root now remembers how to go back to what it was.
      root.map = undefined;
      root.id = v.id;
      root.entry = previous;
      root.next = v;
      v.map = map;
      v.next = undefined;
      v.entry = undefined;
    }
    return map;
  }

  /** `previous`: the entry for `id` in this version, which is the root when this is called. */
  private change(id: string, previous: Entry | undefined, entry: Entry | undefined, size: number): ActiveTools {
    if (this.size === 0) {
      // Nothing to share with an empty version: a fresh Map keeps unrelated agents (which all
      // start from `empty`) from rerooting each other's histories back and forth.
      const fresh = new Map<string, Entry>();
      if (entry) fresh.set(id, entry);
      return new ActiveTools(fresh, size, this.nextSeq + 1);
    }
    const map = this.map as Map<string, Entry>;
    if (entry) map.set(id, entry);
    else map.delete(id);
    const root = new ActiveTools(map, size, this.nextSeq + 1);
    // This version becomes one difference away from the new root.
    this.map = undefined;
    this.id = id;
    this.entry = previous;
    this.next = root;
    return root;
  }
}
