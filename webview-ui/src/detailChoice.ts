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
