/**
 * A card store over a real agent manager, with a board of its own (real tracker and approvals):
 * what the extension composes, for the tests that watch cards and turns' ends. Each tick runs at
 * once, so a test sees a card the moment its source changed.
 */
import type { AgentManager } from "../../src/agents/agent/agentManager";
import { CardStore } from "../../src/agents/cards/cardStore";
import { LiveBoard } from "../../src/agents/cards/liveBoard";
import { ApprovalQueue } from "../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../src/core/mcp/toolCallTracker";

export function cardStoreOver(manager: AgentManager): CardStore {
  const board = new LiveBoard({ calls: new ToolCallTracker(), approvals: new ApprovalQueue() });
  return new CardStore({ agents: manager, board, schedule: (flush) => flush() });
}
