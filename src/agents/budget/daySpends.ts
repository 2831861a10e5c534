/**
 * What each session spent today, kept beyond the agent that spent it: today's cap counts every
 * agent of the window, so an agent closed (its card gone) or moved to a new session by `/clear`
 * still counts for the rest of the day. Only today is kept; what it held is saved with the budget's
 * state (sessions no longer followed cannot be read again after a reload).
 */
import type { Spend } from "../../core/budget";

/** Sessions kept per day: far more than a day's agents. */
const MAX_SESSIONS = 1000;

export interface SavedDay {
  day: string;
  /** Session id → USD spent that day. */
  sessions: Record<string, number>;
}

export class DaySpends {
  private day: string | undefined;
  private sessions = new Map<string, Spend>();
  private changed = false;

  constructor(saved?: SavedDay) {
    if (!saved) return;
    this.day = saved.day;
    for (const [id, usd] of Object.entries(saved.sessions)) this.sessions.set(id, { usd, complete: true });
  }

  /** A session's spend on `day` (a new day starts empty). */
  note(day: string, sessionId: string, spend: Spend): void {
    if (day !== this.day) {
      this.day = day;
      this.sessions = new Map();
    }
    const before = this.sessions.get(sessionId);
    if (before && before.usd === spend.usd && before.complete === spend.complete) return;
    if (!before && this.sessions.size >= MAX_SESSIONS) return;
    this.sessions.set(sessionId, spend);
    this.changed = true;
  }

  total(day: string): Spend {
    let usd = 0;
    let complete = true;
    if (day !== this.day) return { usd, complete };
    for (const spend of this.sessions.values()) {
      usd += spend.usd;
      complete &&= spend.complete;
    }
    return { usd, complete };
  }

  /** What to save, when something changed since the last call. */
  takeChanges(): SavedDay | undefined {
    if (!this.changed || this.day === undefined) return undefined;
    this.changed = false;
    return { day: this.day, sessions: Object.fromEntries([...this.sessions].map(([id, spend]) => [id, spend.usd])) };
  }
}

export function readSavedDay(value: unknown): SavedDay | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(raw.day) || typeof raw.sessions !== "object" || raw.sessions === null) return undefined;
  const sessions = Object.entries(raw.sessions as Record<string, unknown>).filter(
    ([id, usd]) => id.length <= 200 && typeof usd === "number" && Number.isFinite(usd) && usd >= 0,
  ) as [string, number][];
  return { day: raw.day, sessions: Object.fromEntries(sessions.slice(0, MAX_SESSIONS)) };
}
