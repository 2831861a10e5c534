/**
 * What a narrow side bar must not cut, as markup the stylesheet can keep whole: a short status in a
 * span of its own that never shrinks ("Agent #10 Nee…" was the cut), a race tag's n/N apart from its
 * task (the task gives way, the n/N stays), the whole words in each title. Widths themselves need a
 * real browser (bench/fiftyPanel.ts measures sideways overflow at 280 and 300 px).
 */
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { agent, renderPanel, snapshot } from "./helpers";

const lineOf = (id: string) => screen.getAllByTestId("agent-line").find((l) => l.dataset.agentId === id)!;

describe("overview lines in a narrow side bar", () => {
  it("'Needs you' is a status that keeps its width; a long limit is the one that may be cut, whole in its title", () => {
    const panel = renderPanel();
    const limit = "Usage limit reached — resets at Fri 27 Nov, 02:00";
    panel.send(snapshot([agent({ index: 10, status: "needsYou", needsYou: { kind: "permission" } }), agent({ index: 11, lastTurn: "error", limit })]));
    const needs = within(lineOf("agent-10")).getByTestId("line-status");
    expect(needs).toHaveTextContent(/^Needs you$/);
    expect(needs).toHaveClass("line-status");
    expect(needs).not.toHaveClass("line-status-long");
    const limited = within(lineOf("agent-11")).getByTestId("line-status");
    expect(limited).toHaveClass("line-status-long");
    expect(limited).toHaveAttribute("title", limit);
  });

  it("a race tag's n/N is apart from its task, and the title names both whole", () => {
    const panel = renderPanel();
    const task = "add-a-good-title-to-every-page-of-the-docs";
    panel.send(snapshot([agent({ index: 1, race: { raceId: "r1", task, member: 2, of: 3, picked: false, notStarted: null } })]));
    const tag = within(lineOf("agent-1")).getByTestId("line-race");
    expect(tag.querySelector(".line-race-count")).toHaveTextContent(/^2\/3$/);
    expect(tag.querySelector(".line-race-task")).toHaveTextContent(`race: ${task}`);
    expect(tag).toHaveAttribute("title", expect.stringContaining(`Agent 2 of 3 running the race "${task}"`));
  });
});
