/**
 * The files each agent changed in its current session, for its card ("Edited 3 files this
 * session"), derived from its transcript (core/transcript/sessionEdits.ts) and read again, by
 * what the transcript gained, when the agent's tools or turn end. A new session (/clear) starts a
 * new count.
 */
import { relative, sep } from "node:path";
import { SessionEditsReader } from "../core/transcript/sessionEdits";
import { type Disposable, Emitter } from "../core/util/emitter";
import { errorMessage } from "../core/util/errorMessage";
import type { SessionEditsView } from "../shared/protocol";
import type { AgentChange } from "./agentRegistry";

/** Paths a card lists (the count covers all). */
const LISTED = 50;

interface Entry {
  reader: SessionEditsReader;
  cwd: string;
  reading?: Promise<void>;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

export class SessionEditCards implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<string[]>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly log: (message: string) => void,
    private readonly settleMs = 300,
  ) {}

  /** The agent's current session transcript: a new one (a new agent, /clear) is read from its start. */
  track(agentId: string, transcriptPath: string, cwd: string): void {
    const known = this.entries.get(agentId);
    if (known?.reader.transcriptPath === transcriptPath) return;
    clearTimeout(known?.timer);
    const entry: Entry = { reader: new SessionEditsReader(transcriptPath, cwd), cwd, again: false };
    this.entries.set(agentId, entry);
    if (known && known.reader.files.size > 0) this.changed.fire([agentId]);
    this.read(agentId, entry);
  }

  touched(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.read(agentId, entry), this.settleMs);
  }

  /** The files (absolute), for Review. */
  files(agentId: string): string[] {
    return [...(this.entries.get(agentId)?.reader.files ?? [])];
  }

  sessionEdits(agentId: string): SessionEditsView | null {
    const entry = this.entries.get(agentId);
    if (!entry || entry.reader.files.size === 0) return null;
    const shown = [...entry.reader.files].slice(0, LISTED).map((path) => {
      const rel = relative(entry.cwd, path);
      return rel && rel !== ".." && !rel.startsWith(`..${sep}`) ? rel : path;
    });
    return { files: shown, total: entry.reader.files.size };
  }

  forget(agentId: string): void {
    clearTimeout(this.entries.get(agentId)?.timer);
    this.entries.delete(agentId);
  }

  dispose(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
    this.changed.dispose();
  }

  private read(agentId: string, entry: Entry): void {
    if (entry.reading) {
      entry.again = true;
      return;
    }
    entry.reading = entry.reader
      .advance()
      .then((changed) => {
        if (changed && this.entries.get(agentId) === entry) this.changed.fire([agentId]);
      })
      .catch((err) => this.log(`edits of ${entry.reader.transcriptPath}: ${errorMessage(err)}`))
      .finally(() => {
        entry.reading = undefined;
        if (entry.again) {
          entry.again = false;
          this.read(agentId, entry);
        }
      });
  }
}

export interface SessionEditEvents {
  onDidChange(listener: (change: AgentChange) => void): Disposable;
  /** The agent's current transcript and folder. */
  sessionOf(agentId: string): { transcriptPath: string; cwd: string } | undefined;
  onDidHook(listener: (agentId: string) => void): Disposable;
}

export function followSessionEdits(cards: SessionEditCards, events: SessionEditEvents): Disposable {
  const subscriptions = [
    events.onDidChange((change) => {
      if (change.type === "removed") return cards.forget(change.id);
      const id = change.type === "updated" || change.type === "turnFinished" ? change.agent.id : undefined;
      const session = id ? events.sessionOf(id) : undefined;
      if (!id || !session) return;
      cards.track(id, session.transcriptPath, session.cwd);
      if (change.type === "turnFinished") cards.touched(id);
    }),
    events.onDidHook((agentId) => cards.touched(agentId)),
  ];
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
