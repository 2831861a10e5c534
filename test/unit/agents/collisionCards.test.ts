/**
 * The collision guard on the cards: both agents' live views name the file (from each agent's own
 * folder) and the other agent, and the warning goes with the agent that closed. Real guard, real
 * git repository, real live board.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { followCollisionAgents, sharedFileSource } from "../../../src/agents/collisions/collisionCards";
import { type AgentLiveView, LiveBoard } from "../../../src/agents/cards/liveBoard";
import { nodeCollisionDisk } from "../../../src/core/collisions/collisionDisk";
import { CollisionGuard } from "../../../src/core/collisions/collisionGuard";
import { ApprovalQueue } from "../../../src/core/mcp/approvalQueue";
import { ToolCallTracker } from "../../../src/core/mcp/toolCallTracker";
import { handCards } from "../../support/cardEvents";
import { useTempDirs } from "../../support/tempDir";

const tempDir = useTempDirs();

describe("shared files on the cards", () => {
  it("both cards say who else edits which file, until one agent is closed", async () => {
    const root = tempDir();
    execFileSync("git", ["init", "-q", root]);
    writeFileSync(join(root, "App.tsx"), "a\n");
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const agents: Record<string, { name: string; cwd: string }> = { a1: { name: "Agent #1", cwd: root }, a2: { name: "Fixer", cwd: "/elsewhere" } };
    const shared = sharedFileSource(guard, { agentInfo: (id) => agents[id] });
    const board = new LiveBoard({ calls: new ToolCallTracker(), approvals: new ApprovalQueue(), extras: { shared } });
    const cards = handCards();
    followCollisionAgents(guard, cards);
    // What the card store does: the agents a source names are looked at again.
    const sent: AgentLiveView[] = [];
    shared.onDidChange((ids) => ids.forEach((id) => sent.push(board.view(id))));

    await guard.beforeEdit("a1", "t1", join(root, "App.tsx"));
    await guard.beforeEdit("a2", "t2", join(root, "App.tsx"));
    const last = (id: string) => sent.filter((l) => l.agentId === id).at(-1)?.sharedFiles;
    expect(last("a1")).toEqual([{ file: "App.tsx", withAgents: ["Fixer"] }]);
    // Outside its own folder, the file is shown whole.
    expect(last("a2")).toEqual([{ file: join(root, "App.tsx"), withAgents: ["Agent #1"] }]);

    cards.remove("a2");
    expect(last("a1")).toEqual([]);
  });

  it("an agent that went idle is editing nothing now", async () => {
    const root = tempDir();
    const guard = new CollisionGuard(nodeCollisionDisk(() => [root]));
    const cards = handCards();
    followCollisionAgents(guard, cards);
    await guard.beforeEdit("a1", "t1", join(root, "x.ts"));
    cards.change({ id: "a1", status: "waiting" } as never);
    expect(await guard.beforeEdit("a2", "t2", join(root, "x.ts"))).toBeUndefined();
  });
});
