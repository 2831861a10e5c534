/** What an agent's overview line says it does now, and since when. */
import type { CardView, ToolView } from "../../src/shared/protocol";
import { cardStatus } from "./agentStatus";

/** What an agent's overview line says it does now, and since when (for its ticking time). */
export interface NowDoing {
  text: string;
  /** ms since the epoch the thing began running (after any wait for the user); absent: no clock. */
  since?: number;
}

const NEEDS_YOU_DOING: Record<NonNullable<CardView["needsYou"]>["kind"], string> = {
  permission: "a permission prompt",
  approval: "an approval",
  review: "a diff to review",
  question: "a question in its terminal",
  dialog: "a dialog in its terminal",
};

/**
 * The newest running tool of the current turn (a sub-agent's own tool rather than its Subtask row,
 * which only says a sub-agent runs), else a background one still running, else nothing. Pure: the
 * line and its tests read the same answer.
 */
export function nowDoing(agent: Pick<CardView, "status" | "lastTurn" | "needsYou" | "tools"> & Partial<Pick<CardView, "prompts">>): NowDoing | null {
  const status = cardStatus(agent);
  if (status === "needsYou" && (agent.prompts?.length ?? 0) === 0 && agent.needsYou) return { text: `Waiting on ${NEEDS_YOU_DOING[agent.needsYou.kind]}` };
  if (status === "exited") return null;
  // A call whose prompt is up ("Waiting for you: touch x") is what it does now too, with no clock.
  const running = agent.tools.filter((t) => t.outcome === "running" || t.outcome === "waiting");
  const parents = new Set(running.map((t) => t.parent).filter((p): p is string => p !== null));
  const foreground = running.filter((t) => !t.background && !parents.has(t.id));
  const pick = newest(foreground) ?? newest(running.filter((t) => !parents.has(t.id))) ?? newest(running);
  if (!pick) return null;
  const text = pick.background && !foreground.includes(pick) ? `Background: ${pick.label}` : pick.label;
  return pick.startedAt === undefined || pick.outcome === "waiting" ? { text } : { text, since: pick.startedAt + (pick.waitedMs ?? 0) };
}

function newest(tools: readonly ToolView[]): ToolView | undefined {
  let best: ToolView | undefined;
  for (const tool of tools) if (!best || (tool.startedAt ?? 0) >= (best.startedAt ?? 0)) best = tool;
  return best;
}
