/**
 * What each agent's card shows of its whole current session — the files it changed ("Edited 3
 * files this session"), its tokens and estimated cost, a usage limit it hit, and its earlier turns —
 * folded from what its session's follower reads (core/sessions SessionFigures), with no reading of
 * its own: one reading per transcript. A new session (/clear, a resume into another file) starts anew.
 */
import { shownFrom } from "../../core/collisions";
import { basename } from "node:path";
import type { Spend } from "../../core/budget";
import { labelOnceRan } from "../../core/labels";
import type { TranscriptRead } from "../../core/engine";
import { SessionFigures, type TurnSummary } from "../../core/sessions";
import { estimateCost, limitMessage, tokenCount, totalTokens, type UsageTotals } from "../../core/usage";
import { combinedDisposable, type Disposable, DisposableObject, Emitter, type Event } from "../../core/util";
import type { SessionEditsView, SessionUsageView, TurnSummaryView } from "../../shared/protocol";
import type { CardEvents } from "../cards/cardStore";
import type { CardFigures } from "./sessionRows";

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
  figures: SessionFigures;
  cwd: string | undefined;
}

export function turnSummaryView(turn: TurnSummary): TurnSummaryView {
  return {
    number: turn.number,
    prompt: turn.prompt,
    durationMs: turn.durationMs ?? null,
    tools: turn.tools,
    ending: turn.ending,
    rows: turn.rows.map((r) => ({ label: labelOnceRan(r.outcome, r.label, r.action, r.name), outcome: r.outcome })),
  };
}

export class SessionCards extends DisposableObject {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = this._register(new Emitter<string[]>());
  readonly onDidChange = this.changed.event;

  /** @param cwdOf the agent's folder (its edited files are shown from there). */
  constructor(private readonly cwdOf: (agentId: string) => string | undefined) {
    super();
  }

  /** What the agent's follower read: a read of another session than the one folded so far starts anew. */
  read(agentId: string, read: TranscriptRead): void {
    let entry = this.entries.get(agentId);
    const fresh = entry?.figures.session !== read.session;
    if (!entry || fresh) {
      const cwd = this.cwdOf(agentId);
      entry = { figures: new SessionFigures(read.session, cwd), cwd };
      this.entries.set(agentId, entry);
    }
    if (entry.figures.take(read) || fresh) this.changed.fire([agentId]);
  }

  /** The files (absolute), for Review. */
  files(agentId: string): string[] {
    return [...(this.entries.get(agentId)?.figures.current.editedFiles ?? [])];
  }

  sessionEdits(agentId: string): SessionEditsView | null {
    const entry = this.entries.get(agentId);
    const files = entry?.figures.current.editedFiles;
    if (!entry || !files || files.size === 0) return null;
    const shown = [...files].slice(0, LISTED).map((path) => (entry.cwd ? shownFrom(entry.cwd, path) : path));
    return { files: shown, total: files.size };
  }

  usage(agentId: string): SessionUsageView | null {
    const usage = this.entries.get(agentId)?.figures.current.usage;
    if (!usage || Object.keys(usage.byModel).length === 0) return null;
    const cost = estimateCost(usage);
    return { tokens: totalTokens(usage), costUsd: cost.usd, unpricedModels: cost.unpricedModels };
  }

  /** Its spend, and of it what was written on `day` (core/usage localDay). */
  spend(agentId: string, day: string): AgentSpend | undefined {
    const entry = this.entries.get(agentId);
    if (!entry) return undefined;
    const fold = entry.figures.current;
    const read = Object.keys(fold.usage.byModel).length > 0;
    return { sessionId: basename(entry.figures.session, ".jsonl"), session: read ? spendOf(fold.usage) : undefined, day: spendOf(fold.usageOn(day)) };
  }

  /**
   * A session's figures as the card following it shows them, for its Sessions row (sessionRows.ts):
   * the same fold, so the two never disagree. Undefined when no card has read that session's usage.
   */
  rowFigures(sessionId: string): CardFigures | undefined {
    for (const [agentId, entry] of this.entries) {
      if (basename(entry.figures.session, ".jsonl") !== sessionId) continue;
      const usage = this.usage(agentId);
      if (!usage) return undefined;
      return { tokens: tokenCount(usage.tokens), costUsd: usage.costUsd, filesEdited: entry.figures.current.editedFiles.size };
    }
    return undefined;
  }

  /** The session (its id) whose figures the agent's card shows. */
  sessionOf(agentId: string): string | undefined {
    const entry = this.entries.get(agentId);
    return entry && basename(entry.figures.session, ".jsonl");
  }

  /** The agents whose sessions it follows. */
  agentIds(): string[] {
    return [...this.entries.keys()];
  }

  /** "Usage limit reached — resets at 14:00" while the session's last reply was a limit's refusal. */
  limit(agentId: string, now = Date.now()): string | null {
    const notice = this.entries.get(agentId)?.figures.current.limitNotice;
    return notice ? limitMessage(notice, now) : null;
  }

  /** The turns before the last one (the card shows the last one itself), oldest first. */
  history(agentId: string): TurnSummaryView[] {
    const turns = this.entries.get(agentId)?.figures.current.history.turns ?? [];
    return turns.slice(Math.max(0, turns.length - 1 - HISTORY_SHOWN), -1).map(turnSummaryView);
  }

  forget(agentId: string): void {
    this.entries.delete(agentId);
  }

  override dispose(): void {
    super.dispose();
    this.entries.clear();
  }
}

export interface SessionCardEvents {
  cards: Pick<CardEvents, "onDidRemoveCard">;
  /** What each agent's session follower reads, as it reads it (the agent manager's). */
  onDidReadRecords: Event<{ agentId: string; read: TranscriptRead }>;
}

export function followSessions(cards: SessionCards, events: SessionCardEvents): Disposable {
  return combinedDisposable(
    events.cards.onDidRemoveCard((agentId) => cards.forget(agentId)),
    events.onDidReadRecords(({ agentId, read }) => cards.read(agentId, read)),
  );
}

/**
 * The sessions whose cards' figures changed, for their Sessions rows: told once per tick (a
 * microtask) however many reads came in it, each session once. A follower reads as often as its
 * transcript grows; the Sessions view re-sends those rows alone, never the whole list.
 */
export function followRowFigures(cards: Pick<SessionCards, "onDidChange" | "sessionOf">, onSessions: (sessionIds: string[]) => void): Disposable {
  let pending: Set<string> | undefined;
  let live = true;
  const flush = () => {
    const ids = pending;
    pending = undefined;
    if (live && ids && ids.size > 0) onSessions([...ids]);
  };
  const listening = cards.onDidChange((agentIds) => {
    const first = pending === undefined;
    pending ??= new Set();
    for (const agentId of agentIds) {
      const sessionId = cards.sessionOf(agentId);
      if (sessionId) pending.add(sessionId);
    }
    if (first) queueMicrotask(flush);
  });
  return { dispose: () => ((live = false), listening.dispose()) };
}
