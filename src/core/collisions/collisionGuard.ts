/**
 * The collision guard: before an agent edits a file (its PreToolUse hook), is another agent
 * editing that same file right now, or did it edit it and the change is not committed yet? Files
 * are compared by real path (symlinks resolved), so agents in different git worktrees never
 * collide, and two spellings of one file always do.
 *
 * What it holds is live, per agent: the edits running now (PreToolUse seen, no PostToolUse yet,
 * dropped when its turn ends) and the files it has changed that may still be uncommitted (bounded;
 * a file found committed is dropped). Files two agents collided on are remembered until one of
 * them goes or the file is committed, so both cards can say so.
 */
import { Emitter, type Disposable, type Event } from "../util/emitter";
import type { CollisionDisk } from "./collisionDisk";

export interface OtherEditor {
  agentId: string;
  /** Editing it at this moment (else: changed it earlier, not committed). */
  now: boolean;
}

export interface Collision {
  /** The real path of the file. */
  path: string;
  others: OtherEditor[];
}

/** What a card shows: each file it shares with other agents. */
export interface SharedFile {
  path: string;
  otherAgentIds: string[];
}

/** Files remembered per agent; the oldest go first past this. */
export const MAX_EDITED_PER_AGENT = 2000;

export class CollisionGuard implements Disposable {
  private readonly editing = new Map<string, Map<string, string>>();
  private readonly edited = new Map<string, Set<string>>();
  private readonly shared = new Map<string, Set<string>>();
  /** Per agent, the edits the user was asked about (tool_use id → why): the card's prompt says why. */
  private readonly asked = new Map<string, Map<string, string>>();
  private readonly changed: Emitter<string[]>;
  /** The agents whose shared files changed. */
  readonly onDidChange: Event<string[]>;

  constructor(
    private readonly disk: CollisionDisk,
    log: (message: string) => void = () => undefined,
  ) {
    this.changed = new Emitter<string[]>((err) => log(`collision listener failed: ${String(err)}`));
    this.onDidChange = this.changed.event;
  }

  /**
   * `agentId` is about to edit `path` in the call `toolUseId`: remembered as editing now, and the
   * other agents on the same file returned (undefined: nobody else).
   */
  async beforeEdit(agentId: string, toolUseId: string, path: string): Promise<Collision | undefined> {
    const real = await this.disk.realPath(path);
    mapOf(this.editing, agentId).set(toolUseId, real);
    const now = new Set([...this.editing].filter(([id, calls]) => id !== agentId && [...calls.values()].includes(real)).map(([id]) => id));
    let earlier = [...this.edited].filter(([id, files]) => id !== agentId && !now.has(id) && files.has(real)).map(([id]) => id);
    if (earlier.length > 0 && !(await this.disk.uncommitted(real))) {
      for (const id of earlier) this.edited.get(id)?.delete(real);
      earlier = [];
    }
    const others: OtherEditor[] = [...[...now].map((id) => ({ agentId: id, now: true })), ...earlier.map((id) => ({ agentId: id, now: false }))];
    if (others.length === 0) return undefined;
    const agents = mapOfSet(this.shared, real);
    for (const id of [agentId, ...others.map((o) => o.agentId)]) agents.add(id);
    this.changed.fire([...agents]);
    return { path: real, others };
  }

  /** The user is asked about this edit because of a collision: `reason` goes on the card's prompt. */
  noteAsked(agentId: string, toolUseId: string, reason: string): void {
    mapOf(this.asked, agentId).set(toolUseId, reason);
  }

  askedReason(agentId: string, toolUseId: string): string | undefined {
    return this.asked.get(agentId)?.get(toolUseId);
  }

  /** The call ended: a change that happened (`changed`) is remembered until it is committed. */
  afterEdit(agentId: string, toolUseId: string, changed: boolean): void {
    this.asked.get(agentId)?.delete(toolUseId);
    const calls = this.editing.get(agentId);
    const real = calls?.get(toolUseId);
    if (real === undefined) return;
    calls!.delete(toolUseId);
    if (!changed) return;
    const files = mapOfSet(this.edited, agentId);
    files.delete(real);
    files.add(real);
    if (files.size > MAX_EDITED_PER_AGENT) files.delete(files.values().next().value!);
  }

  /** The agent's turn is over: nothing of it is being edited any more (a denied edit never ends). */
  turnEnded(agentId: string): void {
    this.editing.delete(agentId);
    this.asked.delete(agentId);
  }

  /** The files this agent shares with others (what its card warns about). */
  sharedFiles(agentId: string): SharedFile[] {
    const out: SharedFile[] = [];
    for (const [path, agents] of this.shared) if (agents.has(agentId)) out.push({ path, otherAgentIds: [...agents].filter((id) => id !== agentId) });
    return out;
  }

  /** Shared files that were committed since are no longer shared (their warnings go). */
  async recheck(): Promise<void> {
    for (const [path, agents] of [...this.shared]) {
      if (await this.disk.uncommitted(path)) continue;
      this.shared.delete(path);
      for (const id of agents) this.edited.get(id)?.delete(path);
      this.changed.fire([...agents]);
    }
  }

  /** The agent went: its edits, files and shares with it. */
  forgetAgent(agentId: string): void {
    this.editing.delete(agentId);
    this.asked.delete(agentId);
    this.edited.delete(agentId);
    const touched = new Set<string>();
    for (const [path, agents] of [...this.shared]) {
      if (!agents.delete(agentId)) continue;
      for (const id of agents) touched.add(id);
      if (agents.size < 2) this.shared.delete(path);
    }
    if (touched.size > 0) this.changed.fire([...touched]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function mapOf<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let value = map.get(key);
  if (!value) map.set(key, (value = new Map()));
  return value;
}

function mapOfSet(map: Map<string, Set<string>>, key: string): Set<string> {
  let value = map.get(key);
  if (!value) map.set(key, (value = new Set()));
  return value;
}
