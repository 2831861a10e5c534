/** Which agent's details the panel shows below the overview, as a pure choice. */
import type { CardView } from "../../src/shared/protocol";

/**
 * Whose details the panel shows below the overview: the agent the user asked for (while it is
 * there), else the one whose terminal is in front (the details follow you from terminal to
 * terminal), else the first that needs the user, else the first. Pure.
 */
export function detailAgentId(agents: readonly CardView[], asked: string | null): string | undefined {
  if (asked !== null && agents.some((a) => a.id === asked)) return asked;
  return (agents.find((a) => a.focused) ?? agents.find((a) => a.status === "needsYou") ?? agents[0])?.id;
}

/**
 * The agent whose terminal just came to the front, if any: focused now and not before (a new
 * agent opens with its terminal in front). Not a terminal the window revives after a reload (its
 * card was reconnecting): that happens without the user doing anything, and must not take the
 * details from the agent the user chose meanwhile. Pure.
 */
export function broughtToFront(before: readonly CardView[], now: readonly CardView[]): string | undefined {
  const focused = now.find((a) => a.focused);
  if (focused === undefined) return undefined;
  const was = before.find((a) => a.id === focused.id);
  if (was !== undefined && (was.focused || was.reconnecting)) return undefined;
  return focused.id;
}
