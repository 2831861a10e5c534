/**
 * A race's budget over real parts: real transcripts read by a real SessionFollower into the
 * session figures, the real budget book, and the real race book (kept in memory) as its groups.
 * One reply of claude-sonnet-4-5 costs $3 per million input tokens and $15 per million output.
 */
import { BudgetBook } from "../../src/agents/budget/budgetBook";
import type { BudgetState } from "../../src/agents/budget/budgetState";
import { RaceBook } from "../../src/agents/races/raceBook";
import { raceBudgetGroups } from "../../src/agents/races/raceBudget";
import { SessionCards } from "../../src/agents/sessions/sessionCards";
import type { RawBudgetSettings } from "../../src/core/budget";
import { memberStarted, type Race, startRace } from "../../src/core/races";
import { localDay } from "../../src/core/usage";
import { readInto } from "./sessionReads";
import { waitForChange } from "./waitFor";

let ids = 0;
/** One reply, written now. */
export const reply = (usage: { input?: number; output?: number }) =>
  `${JSON.stringify({
    type: "assistant",
    timestamp: new Date().toISOString(),
    uuid: `race-u${++ids}`,
    message: {
      id: `msg_race_${ids}`,
      role: "assistant",
      model: "claude-sonnet-4-5",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: usage.input ?? 0, output_tokens: usage.output ?? 0 },
    },
  })}\n`;

export interface RaceWorld {
  book: BudgetBook;
  cards: SessionCards;
  races: RaceBook;
  saved: { state: unknown; races: unknown };
  set(settings: RawBudgetSettings): void;
  /** Reads the agent's transcript at `path` (its session: another file is a /clear) until its session has spent `usd`. */
  read(agentId: string, path: string, usd: number): Promise<void>;
  /** The agent's card is closed: the session figures and the book forget it (the race keeps it as a member). */
  close(agentId: string): void;
  dispose(): void;
}

/** A race "fix-title" whose members are the cards `memberIds`. */
export async function raceWorld(
  memberIds: string[],
  settings: RawBudgetSettings,
  saved: { state: unknown; races: unknown } = { state: undefined, races: undefined },
): Promise<RaceWorld> {
  const cards = new SessionCards(() => "/w");
  const held = { settings };
  const book = new BudgetBook({
    settings: () => held.settings,
    state: { load: () => saved.state, save: (s: BudgetState) => void (saved.state = structuredClone(s)) },
    log: () => undefined,
  });
  const races = new RaceBook({ load: () => saved.races, save: async (r) => void (saved.races = structuredClone(r)) });
  if (races.all().length === 0) {
    const models = memberIds.map(() => null);
    let race: Race = startRace({ id: "r1", task: "fix-title", prompt: "Fix the title", repo: "/repo", base: "main", now: Date.now(), models });
    memberIds.forEach((id, i) => (race = memberStarted(race, `fix-title-${i + 1}`, id)));
    await races.add(race);
  }
  const owned = [cards, book, races, book.follow(cards), book.followGroups(raceBudgetGroups(races))];
  return {
    book,
    cards,
    races,
    saved,
    set: (next) => void (held.settings = next),
    async read(agentId, path, usd) {
      await readInto(cards, agentId, path);
      const spent = () => cards.spend(agentId, localDay(Date.now()))?.session?.usd;
      await waitForChange(
        (on) => cards.onDidChange(on).dispose,
        () => Math.abs((spent() ?? -1) - usd) < 1e-9,
        5000,
        `${agentId} to have spent $${usd}`,
      );
    },
    close(agentId) {
      cards.forget(agentId);
      book.forget(agentId);
    },
    dispose: () => owned.forEach((d) => d.dispose()),
  };
}
