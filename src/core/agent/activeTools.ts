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

/** The root holds the Map; any other node holds one difference and points towards the root. */
interface Node {
  map: Map<string, Entry> | undefined;
  id: string;
  entry: Entry | undefined;
  next: Node | undefined;
}

function reroot(node: Node): Map<string, Entry> {
  if (node.map) return node.map; // the newest version: the usual case, O(1)
  const path: Node[] = [];
  for (let n: Node = node; n.next; n = n.next) path.push(n);
  let map = (path.at(-1)?.next as Node).map as Map<string, Entry>;
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i] as Node;
    const root = n.next as Node;
    map = root.map as Map<string, Entry>;
    const previous = map.get(n.id);
    if (n.entry) map.set(n.id, n.entry);
    else map.delete(n.id);
    // The old root now remembers how to go back to what it was.
    root.map = undefined;
    root.id = n.id;
    root.entry = previous;
    root.next = n;
    n.map = map;
    n.next = undefined;
    n.entry = undefined;
  }
  return map;
}

export class ActiveTools implements Iterable<ActiveTool> {
  static readonly empty = new ActiveTools({ map: new Map(), id: "", entry: undefined, next: undefined }, 0, 0);

  private listed: readonly ActiveTool[] | undefined;

  private constructor(
    private readonly node: Node,
    readonly size: number,
    private readonly nextSeq: number,
  ) {}

  static of(tools: Iterable<ActiveTool>): ActiveTools {
    let set = ActiveTools.empty;
    for (const tool of tools) set = set.with(tool);
    return set;
  }

  get(id: string): ActiveTool | undefined {
    return reroot(this.node).get(id)?.tool;
  }

  has(id: string): boolean {
    return reroot(this.node).has(id);
  }

  /** Adds a tool, or replaces the one with its id (which keeps its place). */
  with(tool: ActiveTool): ActiveTools {
    const previous = reroot(this.node).get(tool.id);
    const entry: Entry = { tool, seq: previous?.seq ?? this.nextSeq };
    return this.change(tool.id, previous, entry, previous ? this.size : this.size + 1);
  }

  without(id: string): ActiveTools {
    const previous = reroot(this.node).get(id);
    return previous ? this.change(id, previous, undefined, this.size - 1) : this;
  }

  /** In start order. Built once per version (versions never change). */
  list(): readonly ActiveTool[] {
    if (!this.listed) {
      const entries = [...reroot(this.node).values()];
      // Already in order unless an older version was read since (then entries were re-inserted).
      entries.sort((a, b) => a.seq - b.seq);
      this.listed = Object.freeze(entries.map((e) => e.tool));
    }
    return this.listed;
  }

  [Symbol.iterator](): Iterator<ActiveTool> {
    return this.list()[Symbol.iterator]();
  }

  /** `previous`: the entry for `id` in this version, which is the root when this is called. */
  private change(id: string, previous: Entry | undefined, entry: Entry | undefined, size: number): ActiveTools {
    if (this.size === 0) {
      // Nothing to share with an empty version: a fresh Map keeps unrelated agents (which all
      // start from `empty`) from rerooting each other's histories back and forth.
      const fresh = new Map<string, Entry>();
      if (entry) fresh.set(id, entry);
      return new ActiveTools({ map: fresh, id: "", entry: undefined, next: undefined }, size, this.nextSeq + 1);
    }
    const map = this.node.map as Map<string, Entry>;
    if (entry) map.set(id, entry);
    else map.delete(id);
    const root: Node = { map, id: "", entry: undefined, next: undefined };
    // This version becomes one difference away from the new root.
    this.node.map = undefined;
    this.node.id = id;
    this.node.entry = previous;
    this.node.next = root;
    return new ActiveTools(root, size, this.nextSeq + 1);
  }
}
