/**
 * One status truth for a card, the status bar and notifications (displayStatus.ts,
 * statusSummary.ts, attention.ts): what a person sees must never contradict itself or the terminal.
 */
import { describe, expect, it } from "vitest";
import { Attention, nextNeedingYou } from "../../../src/agents/cards/attention";
import { displayStatus, type LiveStatusFacts } from "../../../src/agents/agent/displayStatus";
import type { ClaudeProcessState } from "../../../src/agents/ports";
import { statusSummary } from "../../../src/agents/cards/statusSummary";
import { initialAgentState } from "../../../src/core/agent/agentState";
import type { AgentFacts } from "../../../src/shared/protocol";
import { agentFacts } from "../../support/agentFacts";

const running = (status: "idle" | "busy" | "waiting", waitingFor?: string): ClaudeProcessState => ({
  state: "running",
  pid: 42,
  status,
  ...(waitingFor ? { waitingFor } : {}),
});
const facts = (over: Partial<LiveStatusFacts> = {}): LiveStatusFacts => ({ promptKinds: [], compacting: false, runningTools: [], ...over });
const working = { ...initialAgentState, status: "active" as const };

function view(id: string, index: number, status: AgentFacts["status"], needsYou: AgentFacts["needsYou"] = null): AgentFacts {
  return agentFacts(id, { name: `Agent #${index}`, index, status, needsYou });
}

describe("one status truth", () => {
  it("an Arcadia approval waiting makes the card need you, though the CLI says busy (its MCP call is running)", () => {
    expect(displayStatus(working, running("busy"), false, facts({ promptKinds: ["command"] }))).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "approval" },
    });
    expect(displayStatus(working, running("busy"), false, facts({ promptKinds: ["write"] }))).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "review" },
    });
  });

  it("Claude's permission prompt needs you, from the status file or from the relayed prompt", () => {
    expect(displayStatus(working, running("waiting", "permission prompt"), false)).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "permission" },
      source: "process",
    });
    expect(displayStatus(working, undefined, false, facts({ promptKinds: ["permission", "command"] }))).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "permission" },
    });
  });

  it("a question or another dialog in the terminal needs you; AskUserQuestion says which", () => {
    expect(displayStatus(working, running("waiting", "dialog open"), false, facts({ runningTools: ["AskUserQuestion"] }))).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "question" },
    });
    expect(displayStatus(working, running("waiting", "input needed"), false)).toMatchObject({ status: "needsYou", needsYou: { kind: "dialog" } });
    expect(displayStatus(working, undefined, false, facts({ runningTools: ["AskUserQuestion"] }))).toMatchObject({
      status: "needsYou",
      needsYou: { kind: "question" },
    });
  });

  it("compaction shows while it runs, and a finished turn is idle, not 'needs you'", () => {
    expect(displayStatus(working, running("busy"), false, facts({ compacting: true })).status).toBe("compacting");
    expect(displayStatus(working, undefined, false, facts({ compacting: true })).status).toBe("compacting");
    expect(displayStatus({ ...initialAgentState, status: "waiting" }, running("idle"), false)).toMatchObject({ status: "waiting", needsYou: null });
  });

  it("an exited claude wins over everything it left behind", () => {
    expect(displayStatus(working, running("waiting", "permission prompt"), true, facts({ promptKinds: ["command"], compacting: true })).status).toBe("exited");
  });

  it("the status bar counts working and needing you, never idle agents as waiting for you", () => {
    const agents = [view("a", 1, "needsYou", { kind: "approval" }), view("b", 2, "waiting"), view("c", 3, "waiting"), view("d", 4, "exited")];
    const summary = statusSummary(agents);
    expect(summary.text).toBe("0 working · 1 needs you");
    expect(summary.tooltip).toContain("Agent #1 needs you: an approval");
    expect(summary.tooltip).toContain("3 others idle or stopped");
    expect(statusSummary([view("a", 1, "active"), view("b", 2, "compacting"), view("c", 3, "needsYou", { kind: "permission" })]).text).toBe(
      "2 working · 1 needs you",
    );
    // The verb agrees with its count: one agent needs you, two (or none) need you.
    expect(statusSummary([view("a", 1, "needsYou", { kind: "permission" }), view("b", 2, "needsYou", { kind: "approval" })]).text).toBe(
      "0 working · 2 need you",
    );
    expect(statusSummary([view("a", 1, "waiting")]).text).toBe("0 working · 0 need you");
  });

  it("the branch of the agent in front shows when it works in a worktree; the tooltip names every worktree agent's branch", () => {
    const worktree = (branch: string) => ({ branch, base: "main", changes: null });
    const inFront = { ...view("a", 1, "active"), focused: true, worktree: worktree("fix-login") };
    const behind = { ...view("b", 2, "waiting"), worktree: worktree("add-docs") };
    const summary = statusSummary([inFront, behind]);
    expect(summary.text).toBe("1 working · 0 need you · $(git-branch) fix-login");
    expect(summary.tooltip).toContain("Agent #1 works on branch fix-login");
    expect(summary.tooltip).toContain("Agent #2 works on branch add-docs");
    // The shared checkout's branch is VS Code's own git item: an agent there in front adds nothing.
    expect(statusSummary([{ ...view("a", 1, "active"), focused: true }, behind]).text).toBe("1 working · 0 need you");
  });

  it("a usage limit is said in the same status item as the counts, naming the agent it stopped", () => {
    const limited = { ...view("b", 2, "waiting"), limit: "Usage limit reached — resets at 14:00" };
    const summary = statusSummary([view("a", 1, "active"), limited]);
    // Short in the status bar (never cut by it), whole in the tooltip.
    expect(summary.text).toBe("1 working · 0 need you · $(watch) until 14:00");
    expect(summary.tooltip).toContain("Agent #2: Usage limit reached — resets at 14:00");
    expect(summary.limited).toBe(true);
    expect(statusSummary([view("a", 1, "active")]).limited).toBe(false);
  });

  it("the status bar's words stay short with a limit on another day and a long branch in front: both whole in the tooltip", () => {
    const limited = { ...view("b", 2, "waiting"), limit: "Usage limit reached — resets at Fri 27 Nov, 02:00" };
    const inFront = { ...view("a", 1, "active"), focused: true, worktree: { branch: "arcadia/worktree-add-a-good-title-3", base: "main", changes: null } };
    const summary = statusSummary([inFront, limited]);
    expect(summary.text).toBe("1 working · 0 need you · $(watch) until Fri 27 Nov, 02:00 · $(git-branch) arcadia/worktr…d-title-3");
    // As the status bar shows it: each $(icon) one glyph.
    expect(summary.text.replace(/\$\([a-z-]+\)/g, "*").length).toBeLessThanOrEqual(80);
    expect(summary.tooltip).toContain("Agent #2: Usage limit reached — resets at Fri 27 Nov, 02:00");
    expect(summary.tooltip).toContain("Agent #1 works on branch arcadia/worktree-add-a-good-title-3");
  });

  it("notifies once per agent per transition into 'needs you', and only when its card cannot be seen", () => {
    let seen = false;
    const attention = new Attention(() => seen);
    const asking = view("a", 1, "needsYou", { kind: "approval" });
    expect(attention.needsYou(asking)).toBe("approval");
    expect(attention.needsYou({ ...asking })).toBeUndefined();
    expect(attention.needsYou(view("a", 1, "active"))).toBeUndefined();
    expect(attention.needsYou(asking)).toBe("approval");
    seen = true;
    expect(attention.needsYou(view("b", 2, "needsYou", { kind: "permission" }))).toBeUndefined();
    expect(attention.turnFinished(view("b", 2, "waiting"))).toBe(false);
  });

  it("Go to Next Agent That Needs You cycles through those that do, in card order", () => {
    const agents = [view("a", 1, "needsYou", { kind: "permission" }), view("b", 2, "active"), view("c", 3, "needsYou", { kind: "approval" })];
    expect(nextNeedingYou(agents, undefined)?.id).toBe("a");
    expect(nextNeedingYou(agents, "a")?.id).toBe("c");
    expect(nextNeedingYou(agents, "c")?.id).toBe("a");
    expect(nextNeedingYou([view("b", 2, "active")], undefined)).toBeUndefined();
  });
});
