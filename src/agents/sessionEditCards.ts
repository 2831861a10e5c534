/**
 * The files each agent changed in its current session, for its card ("Edited 3 files this
 * session"), derived from its transcript (core/transcript/sessionEdits.ts) and read again, by
 * what the transcript gained, when the agent's tools or turn end. A new session (/clear) starts a
 * new count.
 */
import { shownFrom } from "../core/collisions/collisionHooks";
import { SessionEditsReader } from "../core/transcript/sessionEdits";
import { type Disposable, Emitter } from "../core/util/emitter";
import { errorMessage } from "../core/util/errorMessage";
import { SettledRuns } from "../core/util/settledRuns";
import type { SessionEditsView } from "../shared/protocol";
import type { AgentChange } from "./agentRegistry";

/** Paths a card lists (the count covers all). */
const LISTED = 50;

interface Entry {
  reader: SessionEditsReader;
  cwd: string;
}

export class SessionEditCards implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<string[]>();
  readonly onDidChange = this.changed.event;

  private readonly reads: SettledRuns;

  constructor(
    private readonly log: (message: string) => void,
    settleMs = 300,
  ) {
    this.reads = new SettledRuns(settleMs);
  }

  /** The agent's current session transcript: a new one (a new agent, /clear) is read from its start. */
  track(agentId: string, transcriptPath: string, cwd: string): void {
    const known = this.entries.get(agentId);
    if (known?.reader.transcriptPath === transcriptPath) return;
    this.reads.cancel(agentId);
    const entry: Entry = { reader: new SessionEditsReader(transcriptPath, cwd), cwd };
    this.entries.set(agentId, entry);
    if (known && known.reader.files.size > 0) this.changed.fire([agentId]);
    void this.reads.now(agentId, () => this.read(agentId, entry));
  }

  touched(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (entry) this.reads.request(agentId, () => this.read(agentId, entry));
  }

  /** The files (absolute), for Review. */
  files(agentId: string): string[] {
    return [...(this.entries.get(agentId)?.reader.files ?? [])];
  }

  sessionEdits(agentId: string): SessionEditsView | null {
    const entry = this.entries.get(agentId);
    if (!entry || entry.reader.files.size === 0) return null;
    const shown = [...entry.reader.files].slice(0, LISTED).map((path) => shownFrom(entry.cwd, path));
    return { files: shown, total: entry.reader.files.size };
  }

  forget(agentId: string): void {
    this.reads.cancel(agentId);
    this.entries.delete(agentId);
  }

  dispose(): void {
    this.reads.dispose();
    this.entries.clear();
    this.changed.dispose();
  }

  /** One read of what the transcript gained (SettledRuns keeps them one at a time per agent). */
  private async read(agentId: string, entry: Entry): Promise<void> {
    try {
      if ((await entry.reader.advance()) && this.entries.get(agentId) === entry) this.changed.fire([agentId]);
    } catch (err) {
      this.log(`edits of ${entry.reader.transcriptPath}: ${errorMessage(err)}`);
    }
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
