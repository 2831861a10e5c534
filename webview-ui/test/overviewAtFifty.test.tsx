/**
 * The overview at fifty agents, as a user reads it: who needs you first, then who works, then who
 * stopped, the idle ones behind a count that opens; a filter by name, branch or status; a race's
 * members together under its name; every prompt above the lines with its buttons.
 */
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CardView } from "../../src/shared/protocol";
import { agent, prompt, renderPanel, snapshot } from "./helpers";

const lineNames = () => screen.queryAllByTestId("line-name").map((n) => n.textContent);
const overviewText = () =>
  Array.from(screen.getByTestId("agent-overview").children).map((row) =>
    row.matches('[data-testid="agent-line"]') ? within(row as HTMLElement).getByTestId("line-name").textContent : row.textContent?.trim(),
  );

/** Fifty agents: 3 and 40 need you (a prompt; a status), 7 and 20 work, 12 errored, the rest idle. */
function fifty(overrides: Record<number, Partial<CardView>> = {}): CardView[] {
  return Array.from({ length: 50 }, (_, i) => {
    const index = i + 1;
    return agent({ index, branch: `feature-${index}`, ...overrides[index] });
  });
}
const busy = {
  3: { status: "active", prompts: [prompt({ id: "p3", subject: "Bash: touch three.txt" })] },
  40: { status: "needsYou", needsYou: { kind: "permission" } },
  7: { status: "active" },
  20: { status: "starting" },
  12: { status: "waiting", lastTurn: "error" },
} as Record<number, Partial<CardView>>;

describe("the overview at fifty agents", () => {
  it("needs-you first, then working, then stopped, then the idle ones behind a count that opens and closes", () => {
    const panel = renderPanel();
    panel.send(snapshot(fifty(busy)));
    expect(overviewText()).toEqual(["Agent #3", "Agent #40", "Agent #7", "Agent #20", "Agent #12", "45 idle"]);
    const toggle = screen.getByTestId("idle-toggle");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(toggle);
    expect(screen.getByTestId("idle-toggle")).toHaveAttribute("aria-expanded", "true");
    expect(lineNames()).toHaveLength(50);
    expect(lineNames().slice(5, 8)).toEqual(["Agent #1", "Agent #2", "Agent #4"]);
    fireEvent.click(screen.getByTestId("idle-toggle"));
    expect(lineNames()).toHaveLength(5);
  });

  it("a line moves as its agent's status changes: one that starts asking goes to the top", () => {
    const panel = renderPanel();
    panel.send(snapshot(fifty(busy)));
    panel.send({
      type: "cardsChanged",
      changed: [agent({ index: 33, branch: "feature-33", status: "needsYou", needsYou: { kind: "question" } })],
      removed: [],
    });
    expect(lineNames().slice(0, 3)).toEqual(["Agent #3", "Agent #33", "Agent #40"]);
    expect(screen.getByTestId("idle-toggle")).toHaveTextContent("44 idle");
  });

  it("the filter narrows to name, branch or status words, idle matches included; Escape clears it", () => {
    const panel = renderPanel();
    panel.send(snapshot(fifty({ ...busy, 45: { branch: "fix-login" } })));
    const filter = screen.getByTestId("overview-filter");
    fireEvent.change(filter, { target: { value: "Agent #4" } });
    expect(lineNames()).toEqual([
      "Agent #40",
      "Agent #4",
      "Agent #41",
      "Agent #42",
      "Agent #43",
      "Agent #44",
      "Agent #45",
      "Agent #46",
      "Agent #47",
      "Agent #48",
      "Agent #49",
    ]);
    expect(screen.getByTestId("overview-filter-count")).toHaveTextContent("11 of 50");
    fireEvent.change(filter, { target: { value: "LOGIN" } });
    expect(lineNames()).toEqual(["Agent #45"]);
    fireEvent.change(filter, { target: { value: "needs you" } });
    expect(lineNames()).toEqual(["Agent #40"]);
    fireEvent.change(filter, { target: { value: "error" } });
    expect(lineNames()).toEqual(["Agent #12"]);
    fireEvent.change(filter, { target: { value: "nobody-has-this" } });
    expect(lineNames()).toEqual([]);
    expect(screen.getByTestId("overview-none")).toHaveTextContent("No agent matches “nobody-has-this”");
    fireEvent.keyDown(filter, { key: "Escape" });
    expect(filter).toHaveValue("");
    expect(lineNames()).toHaveLength(5);
  });

  it("a race's members are together under its name, at the place of its most urgent member, each with its n/N", () => {
    const race = (member: number) => ({ raceId: "r1", task: "add-a-good-title", member, of: 3, picked: false, notStarted: null });
    const panel = renderPanel();
    panel.send(snapshot(fifty({ ...busy, 30: { race: race(2), status: "active" }, 31: { race: race(3) }, 29: { race: race(1) } })));
    expect(overviewText().slice(0, 7)).toEqual(["Agent #3", "Agent #40", "Agent #7", "Agent #20", "race: add-a-good-title3", "Agent #29", "Agent #30"]);
    const group = screen.getByTestId("overview-group");
    expect(group).toHaveAttribute("title", "race: add-a-good-title: 3 agents");
    expect(within(line30()).getByTestId("line-race")).toHaveTextContent("race: add-a-good-title 2/3");
    expect(screen.getByTestId("idle-toggle")).toHaveTextContent("42 idle");
  });

  it("every prompt is above the lines, with its buttons, however many agents; under nine agents they stay below the lines", () => {
    const asking = Object.fromEntries(
      [5, 15, 25, 35, 45].map((n) => [n, { status: "active", prompts: [prompt({ id: `p${n}`, subject: `Bash: touch ${n}.txt` })] }]),
    ) as Record<number, Partial<CardView>>;
    const panel = renderPanel();
    panel.send(snapshot(fifty(asking)));
    const attention = screen.getByTestId("attention");
    const overview = screen.getByTestId("agent-overview");
    expect(attention.compareDocumentPosition(overview) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(attention).toHaveClass("attention-first");
    const prompts = within(attention).getAllByTestId("prompt");
    expect(prompts).toHaveLength(5);
    for (const p of prompts) {
      expect(within(p).getByText("Allow")).toBeInTheDocument();
      expect(within(p).getByText("Deny")).toBeInTheDocument();
    }

    panel.send(snapshot(fifty(asking).slice(0, 8)));
    expect(screen.queryByTestId("overview-filter")).toBeNull();
    expect(screen.queryByTestId("idle-toggle")).toBeNull();
    expect(lineNames()).toEqual(["Agent #1", "Agent #2", "Agent #3", "Agent #4", "Agent #5", "Agent #6", "Agent #7", "Agent #8"]);
    const below = screen.getByTestId("attention");
    expect(screen.getByTestId("agent-overview").compareDocumentPosition(below) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("an idle agent the extension brings into view opens the idle count and clears the filter", () => {
    const panel = renderPanel();
    panel.send(snapshot(fifty(busy)));
    fireEvent.change(screen.getByTestId("overview-filter"), { target: { value: "Agent #7" } });
    panel.send({ type: "revealAgent", id: "agent-33" });
    expect(screen.getByTestId("overview-filter")).toHaveValue("");
    expect(lineNames()).toContain("Agent #33");
  });
});

function line30(): HTMLElement {
  return screen.getAllByTestId("agent-line").find((l) => l.dataset.agentId === "agent-30")!;
}
