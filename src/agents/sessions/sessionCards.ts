/**
 * What each agent's card shows of its whole current session, derived from its transcript by the
 * session digest (core/sessions): the files it changed ("Edited 3 files this session"), its
 * tokens and estimated cost, a usage limit it hit, and its earlier turns. Read again, by what the
 * transcript gained (never from the start), as the agent works; a new session (/clear, a resume
 * into another file) starts anew.
 */
import { shownFrom } from "../../core/collisions";
import { SessionDigestReader } from "../../core/sessions";
import type { TurnSummary } from "../../core/sessions";
import { basename } from "node:path";
import type { Spend } from "../../core/budget";
import { estimateCost, limitMessage, totalTokens, type UsageTotals } from "../../core/usage";
import { combinedDisposable, type Disposable, DisposableObject, Emitter, errorMessage, SettledRuns } from "../../core/util";
import type { SessionEditsView, SessionUsageView, TurnSummaryView } from "../../shared/protocol";
import type { CardEvents } from "../cards/cardStore";

/** Paths a card lists (the count covers all). */
const LISTED = 50;
/** Earlier turns a card shows (the newest ones). */
const HISTORY_SHOWN = 20;

/** What an agent spent, for its budget: its session (undefined: nothing read yet, unknown) and, of it, one day's. */
export interface AgentSpend {
  sessionId: string;
  session: Spend | undefined;
  day: Spend;
}

const spendOf = (usage: UsageTotals): Spend => {
  const cost = estimateCost(usage);
  return { usd: cost.usd, complete: cost.unpricedModels.length === 0 };
};

interface Entry {
  reader: SessionDigestReader;
  cwd: string;
}

export function turnSummaryView(turn: TurnSummary): TurnSummaryView {
  return {
    number: turn.number,
    prompt: turn.prompt,
    durationMs: turn.durationMs ?? null,
    tools: turn.tools,
    ending: turn.ending,
    rows: turn.rows.map((r) => ({ label: r.label, outcome: r.outcome })),
  };
}

export class SessionCards extends DisposableObject {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = this._register(new Emitter<string[]>());
  readonly onDidChange = this.changed.event;

  private readonly reads: SettledRuns;

  constructor(
    private readonly log: (message: string) => void,
    settleMs = 300,
  ) {
    super();
    this.reads = this._register(new SettledRuns(settleMs));
  }

  /** The agent's current session transcript: a new one (a new agent, /clear) is read from its start. */
  track(agentId: string, transcriptPath: string, cwd: string): void {
    const known = this.entries.get(agentId);
    if (known?.reader.transcriptPath === transcriptPath) return;
    this.reads.cancel(agentId);
    const entry: Entry = { reader: new SessionDigestReader(transcriptPath, { cwd, maxBytesPerRead: 256 * 1024 }), cwd };
    this.entries.set(agentId, entry);
    if (known) this.changed.fire([agentId]);
    void this.reads.now(agentId, () => this.read(agentId, entry));
  }

  touched(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (entry) this.reads.request(agentId, () => this.read(agentId, entry));
  }

  /** The files (absolute), for Review. */
  files(agentId: string): string[] {
    return [...(this.entries.get(agentId)?.reader.current.editedFiles ?? [])];
  }

  sessionEdits(agentId: string): SessionEditsView | null {
    const entry = this.entries.get(agentId);
    const files = entry?.reader.current.editedFiles;
    if (!entry || !files || files.size === 0) return null;
    const shown = [...files].slice(0, LISTED).map((path) => shownFrom(entry.cwd, path));
    return { files: shown, total: files.size };
  }

  usage(agentId: string): SessionUsageView | null {
    const usage = this.entries.get(agentId)?.reader.current.usage;
    if (!usage || Object.keys(usage.byModel).length === 0) return null;
    const cost = estimateCost(usage);
    return { tokens: totalTokens(usage), costUsd: cost.usd, unpricedModels: cost.unpricedModels };
  }

  /** Its spend, and of it what was written on `day` (core/usage localDay). */
  spend(agentId: string, day: string): AgentSpend | undefined {
    const entry = this.entries.get(agentId);
    if (!entry) return undefined;
    const fold = entry.reader.current;
    const read = Object.keys(fold.usage.byModel).length > 0;
    return { sessionId: basename(entry.reader.transcriptPath, ".jsonl"), session: read ? spendOf(fold.usage) : undefined, day: spendOf(fold.usageOn(day)) };
  }

  /** The agents whose sessions it follows. */
  agentIds(): string[] {
    return [...this.entries.keys()];
  }

  /** "Usage limit reached — resets at 14:00" while the session's last reply was a limit's refusal. */
  limit(agentId: string, now = Date.now()): string | null {
    const notice = this.entries.get(agentId)?.reader.current.limitNotice;
    return notice ? limitMessage(notice, now) : null;
  }

  /** The turns before the last one (the card shows the last one itself), oldest first. */
  history(agentId: string): TurnSummaryView[] {
    const turns = this.entries.get(agentId)?.reader.current.history.turns ?? [];
    return turns.slice(Math.max(0, turns.length - 1 - HISTORY_SHOWN), -1).map(turnSummaryView);
  }

  forget(agentId: string): void {
    this.reads.cancel(agentId);
    this.entries.delete(agentId);
  }

  override dispose(): void {
    super.dispose();
    this.entries.clear();
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

export interface SessionCardEvents {
  cards: CardEvents;
  /** The agent's current transcript and folder. */
  sessionOf(agentId: string): { transcriptPath: string; cwd: string } | undefined;
  onDidHook(listener: (agentId: string) => void): Disposable;
}

export function followSessions(cards: SessionCards, events: SessionCardEvents): Disposable {
  return combinedDisposable(
    events.cards.onDidRemoveCard((agentId) => cards.forget(agentId)),
    events.cards.onDidChangeCard(({ id }) => {
      const session = events.sessionOf(id);
      if (!session) return;
      cards.track(id, session.transcriptPath, session.cwd);
      // Tokens grow with every reply: read what the transcript gained (settled, a few times a second at most).
      cards.touched(id);
    }),
    events.onDidHook((agentId) => cards.touched(agentId)),
  );
}
