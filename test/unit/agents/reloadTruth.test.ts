/**
 * A card after a window reload reads as it did before, for every recorded scenario with a denial,
 * an interrupt, a background task or the CLI's away summary: the live card (transcript + hooks +
 * status file + prompt waits, replayed from the real CLI's recording up to each checkpoint) and the
 * restored one (its transcript's tail, then bound to its claude again) show the same rows, in the
 * same words, with the same outcomes, and the same status.
 */
import { describe, expect, it } from "vitest";
import type { AgentFacts } from "../../../src/shared/protocol";
import { beforeAndAfterReload } from "../../support/observedReplay";
import { loadScenario } from "../../support/recorded";

const SCENARIOS = ["permission-deny-then-approve", "escape-slow-tool", "subagent-background", "away-summary"];
const cases = SCENARIOS.flatMap((scenario) => loadScenario(scenario).checkpoints.map((c) => [scenario, c.name] as const));

/** What a person reads on the card: each row's words, outcome, nesting and background mark; the status line. */
const reads = (view: AgentFacts) => ({
  status: view.status,
  // How the last turn ended shows only once the agent is idle again.
  lastTurn: view.status === "waiting" ? view.lastTurn : undefined,
  needsYou: view.needsYou,
  rows: view.tools.map((t) => ({ id: t.id, label: t.label, outcome: t.outcome, parent: t.parent, background: t.background })),
});

describe("a card after a reload reads as it did before", () => {
  it.each(cases)("%s @ %s", async (scenario, checkpoint) => {
    const { before, reconnecting, after } = await beforeAndAfterReload(scenario, checkpoint);
    expect(reads(after)).toEqual(reads(before));
    // Reconnecting, it knows only the transcript: its rows already read the same.
    expect(reads(reconnecting).rows).toEqual(reads(before).rows);
  });
});

describe("what the live card showed, replayed from the real CLI's recording", () => {
  const rowsAt = async (checkpoint: string) => (await beforeAndAfterReload("away-summary", checkpoint)).before.tools.map((t) => `${t.label} · ${t.outcome}`);

  it("a 'No' at Claude's prompt reads 'Denied: touch denied.txt' (never 'Denied: Running: …')", async () => {
    expect(await rowsAt("after-deny")).toEqual(["Denied: touch denied.txt · denied"]);
  });

  it("Escape during the slow command reads 'Interrupted: …'", async () => {
    expect(await rowsAt("after-escape")).toEqual([expect.stringMatching(/^Interrupted: python3 -c "import time; time.sleep\(30\).* · interrupted$/)]);
  });

  it("the background sub-agent runs, marked background, while its parent's turn is over", async () => {
    const { before } = await beforeAndAfterReload("away-summary", "background-running");
    expect(before.tools.map((t) => [t.label, t.outcome, t.background])).toEqual([
      ["Subtask: Greeting helper", "running", true],
      [expect.stringMatching(/^Running: python3 -c "import time; time\.sleep\(5\)/), "running", false],
    ]);
    // Under its Agent call.
    expect(before.tools[1]?.parent).toBe(before.tools[0]?.id);
  });

  it("after the away summary's recap request answered with two tool calls, the idle card shows no row of them, running or not", async () => {
    const { before } = await beforeAndAfterReload("away-summary", "after-away-summary");
    expect(before.status).toBe("waiting");
    expect(before.tools.filter((t) => t.outcome === "running")).toEqual([]);
    expect(before.tools.some((t) => /README\.md|ls -la/.test(t.label))).toBe(false);
  });
});
