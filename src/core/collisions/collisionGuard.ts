/**
 * The collision guard: before an agent edits a file (its PreToolUse hook), is another agent
 * editing that same file right now, or did it edit it and the change is not committed yet? Files
 * are compared on disk (collisionDisk.ts): by real path (symlinks resolved, a dangling one to the
 * file it creates) or by device and inode (a hard link), so agents in different git worktrees
 * never collide, and two names of one file always do.
 *
 * What it holds is live, per agent: the edits running now (PreToolUse seen, no PostToolUse yet,
 * dropped when its turn ends) and the files it has changed that may still be uncommitted (bounded;
 * a file found committed is dropped). Files two agents collided on are remembered until one of
 * them goes or the file is committed, so both cards can say so.
 */
import { DisposableObject, Emitter, type Event } from "../util";
import { type CollisionDisk, type FileIdentity, sameFile } from "./collisionDisk";

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

export class CollisionGuard extends DisposableObject {
  /** Per agent, the edits running now: tool_use id → file. */
  private readonly editing = new Map<string, Map<string, FileIdentity>>();
  /** Per agent, the files it changed (oldest first), by real path. */
  private readonly edited = new Map<string, Map<string, FileIdentity>>();
  /** Files two agents collided on, by the real path first seen → the agents. */
  private readonly shared = new Map<string, { file: FileIdentity; agents: Set<string> }>();
  /** Per agent, the edits the user was asked about (tool_use id → why): the card's prompt says why. */
  private readonly asked = new Map<string, Map<string, string>>();
  private readonly changed: Emitter<string[]>;
  /** The agents whose shared files changed. */
  readonly onDidChange: Event<string[]>;

  constructor(
    private readonly disk: CollisionDisk,
    log: (message: string) => void = () => undefined,
  ) {
    super();
    this.changed = this._register(new Emitter<string[]>((err) => log(`collision listener failed: ${String(err)}`)));
    this.onDidChange = this.changed.event;
  }

  /**
   * `agentId` is about to edit `path` in the call `toolUseId`: remembered as editing now, and the
   * other agents on the same file returned (undefined: nobody else).
   */
  async beforeEdit(agentId: string, toolUseId: string, path: string): Promise<Collision | undefined> {
    const file = await this.disk.identify(path);
    mapOf(this.editing, agentId).set(toolUseId, file);
    const now = new Set<string>();
    for (const [id, calls] of this.editing) if (id !== agentId && (await this.anySame(calls.values(), file))) now.add(id);
    let earlier: string[] = [];
    for (const [id, files] of this.edited) if (id !== agentId && !now.has(id) && (await this.anySame(files.values(), file))) earlier.push(id);
    if (earlier.length > 0 && !(await this.disk.uncommitted(file.path))) {
      for (const id of earlier) dropFile(this.edited.get(id), file);
      earlier = [];
    }
    const others: OtherEditor[] = [...[...now].map((id) => ({ agentId: id, now: true })), ...earlier.map((id) => ({ agentId: id, now: false }))];
    if (others.length === 0) return undefined;
    let entry: { file: FileIdentity; agents: Set<string> } | undefined;
    for (const share of this.shared.values()) if (!entry && (await this.stillSame(share.file, file))) entry = share;
    entry ??= this.newShare(file);
    for (const id of [agentId, ...others.map((o) => o.agentId)]) entry.agents.add(id);
    this.changed.fire([...entry.agents]);
    return { path: entry.file.path, others };
  }

  private async anySame(files: Iterable<FileIdentity>, file: FileIdentity): Promise<boolean> {
    for (const f of files) if (await this.stillSame(f, file)) return true;
    return false;
  }

  /**
   * One file by its path, or by an inode its remembered path still holds now: an edit replaces its
   * file (a new inode) and frees the old number, which the system soon gives another file, so an
   * inode remembered from before is looked at again before it says two paths are one file.
   */
  private async stillSame(remembered: FileIdentity, file: FileIdentity): Promise<boolean> {
    if (remembered.path === file.path) return true;
    if (!sameFile(remembered, file)) return false;
    remembered.id = (await this.disk.identify(remembered.path)).id;
    return remembered.id === file.id;
  }

  private newShare(file: FileIdentity): { file: FileIdentity; agents: Set<string> } {
    const entry = { file, agents: new Set<string>() };
    this.shared.set(file.path, entry);
    return entry;
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
    const file = calls?.get(toolUseId);
    if (file === undefined) return;
    calls!.delete(toolUseId);
    if (!changed) return;
    const files = mapOf(this.edited, agentId);
    files.delete(file.path);
    files.set(file.path, file);
    if (files.size > MAX_EDITED_PER_AGENT) files.delete(files.keys().next().value!);
    // Its inode after the edit: a file the edit created has one only now, and an edit that wrote
    // a new file in its place (how editors and the CLI save) left the old number free.
    void this.disk.identify(file.path).then(
      (now) => (file.id = now.id),
      () => undefined,
    );
  }

  /**
   * Files `agentId` changed earlier in its session, read from its transcript (after a window reload
   * the hooks that told the guard are gone, not the edits): each is remembered as changed, and a
   * file another agent changed too and still uncommitted is shared again, so both cards warn as
   * before the reload (issue 33). Files known already are left as they are.
   */
  async rememberEdited(agentId: string, paths: readonly string[]): Promise<void> {
    const files = mapOf(this.edited, agentId);
    const touched = new Set<string>();
    for (const path of paths) {
      if (files.has(path)) continue;
      const file = await this.disk.identify(path);
      files.set(file.path, file);
      if (files.size > MAX_EDITED_PER_AGENT) files.delete(files.keys().next().value!);
      const others: string[] = [];
      for (const [id, theirs] of this.edited) if (id !== agentId && (await this.anySame(theirs.values(), file))) others.push(id);
      if (others.length === 0 || !(await this.disk.uncommitted(file.path))) continue;
      let entry: { file: FileIdentity; agents: Set<string> } | undefined;
      for (const share of this.shared.values()) if (!entry && (await this.stillSame(share.file, file))) entry = share;
      entry ??= this.newShare(file);
      for (const id of [agentId, ...others]) {
        entry.agents.add(id);
        touched.add(id);
      }
    }
    if (touched.size > 0) this.changed.fire([...touched]);
  }

  /** The agent's turn is over: nothing of it is being edited any more (a denied edit never ends). */
  turnEnded(agentId: string): void {
    this.editing.delete(agentId);
    this.asked.delete(agentId);
  }

  /** The files this agent shares with others (what its card warns about). */
  sharedFiles(agentId: string): SharedFile[] {
    const out: SharedFile[] = [];
    for (const [path, { agents }] of this.shared) if (agents.has(agentId)) out.push({ path, otherAgentIds: [...agents].filter((id) => id !== agentId) });
    return out;
  }

  /** Shared files that were committed since are no longer shared (their warnings go). */
  async recheck(): Promise<void> {
    for (const [path, { file, agents }] of [...this.shared]) {
      if (await this.disk.uncommitted(path)) continue;
      this.shared.delete(path);
      for (const id of agents) dropFile(this.edited.get(id), file);
      this.changed.fire([...agents]);
    }
  }

  /** The agent went: its edits, files and shares with it. */
  forgetAgent(agentId: string): void {
    this.editing.delete(agentId);
    this.asked.delete(agentId);
    this.edited.delete(agentId);
    const touched = new Set<string>();
    for (const [path, { agents }] of [...this.shared]) {
      if (!agents.delete(agentId)) continue;
      for (const id of agents) touched.add(id);
      if (agents.size < 2) this.shared.delete(path);
    }
    if (touched.size > 0) this.changed.fire([...touched]);
  }
}

function mapOf<V>(map: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let value = map.get(key);
  if (!value) map.set(key, (value = new Map()));
  return value;
}

/** Forgets every name of `file` among an agent's changed files. */
function dropFile(files: Map<string, FileIdentity> | undefined, file: FileIdentity): void {
  if (!files) return;
  for (const [path, f] of files) if (sameFile(f, file)) files.delete(path);
}
