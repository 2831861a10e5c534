/** An agent's part of a card with every field at its resting value, for tests that vary a few. */
import type { AgentFacts } from "../../src/shared/protocol";

/** "a3" is Agent #3 (its index from the digits in its id), working, nothing else on it. */
export function agentFacts(id: string, over: Partial<AgentFacts> = {}): AgentFacts {
  const index = Number(id.replace(/\D/g, "")) || 1;
  return {
    id,
    name: `Agent #${index}`,
    index,
    status: "active",
    lastTurn: "none",
    tools: [],
    focused: false,
    retry: null,
    context: null,
    statusSource: "process",
    needsYou: null,
    reconnecting: false,
    exitMessage: null,
    ...over,
  };
}
