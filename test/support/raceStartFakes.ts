/**
 * Fakes for starting a race (fan out, and its resume after a reload): a memory store for the race
 * book, and the start's ports — worktrees, launches, readiness per agent (a switch), typing and
 * "taken" looks — recorded in order as events, so a test reads what happened and when.
 */
import type { RaceBook, RaceStore } from "../../src/agents/races/raceBook";
import type { Readiness } from "../../src/agents/races/raceStart";
import type { Race } from "../../src/core/races/race";

export function memoryStore(): RaceStore & { saved: Race[][] } {
  const saved: Race[][] = [];
  let kept: unknown = [];
  return { saved, load: () => kept, save: async (races) => void (saved.push(JSON.parse(JSON.stringify(races))), (kept = JSON.parse(JSON.stringify(races)))) };
}

/** Fakes for fan out: what happened, in order, and a switch per agent for when its claude is ready. */
export function fanOutFakes(book: RaceBook) {
  const events: string[] = [];
  const ready = new Map<string, (r: Readiness) => void>();
  /** Per agent, whether each look finds the task taken (default: the first look does). */
  const taken = new Map<string, boolean[]>();
  let n = 0;
  let now = 0;
  return {
    events,
    ready: (agentId: string, r: Readiness = "ready") => ready.get(agentId)!(r),
    taken,
    deps: {
      book,
      createWorktree: async (_repo: string, name: string, from: { base: string; commit: string }) =>
        void events.push(`worktree ${name} from ${from.base}@${from.commit}`),
      launch: async (cwd: string, model: string | null) => {
        const id = `agent-${++n}`;
        events.push(`launch ${cwd} ${model ?? "default"} -> ${id} (race saved: ${book.get("r1") !== undefined})`);
        return id;
      },
      whenReady: (agentId: string) => new Promise<Readiness>((resolve) => ready.set(agentId, resolve)),
      type: async (agentId: string, text: string) => void events.push(text === "" ? `enter ${agentId}` : `type ${agentId}: ${text}`),
      whenTaken: async (agentId: string) => {
        events.push(`taken? ${agentId}`);
        return taken.get(agentId)?.shift() ?? true;
      },
      log: (m: string) => events.push(`log ${m}`),
      now: () => (now += 10),
    },
  };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

