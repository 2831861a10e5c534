import { within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { agent, agentLive, details, renderPanel, snapshot } from "./helpers";

describe("files another agent also edits", () => {
  it("the card names the other agents and the file, and the warning goes when the file is no longer shared", () => {
    const panel = renderPanel();
    panel.send(snapshot([agent({ index: 1 }), agent({ index: 2 })]));
    panel.send(
      agentLive("agent-2", {
        sharedFiles: [
          { file: "src/App.tsx", withAgents: ["Agent #1"] },
          { file: "README.md", withAgents: ["Agent #1", "Fixer"] },
        ],
      }),
    );
    const cards = [() => details("agent-1"), () => details("agent-2")];
    const lines = within(cards[1]!())
      .getAllByTestId("shared-file")
      .map((li) => li.textContent);
    expect(lines).toEqual(["Agent #1 also edits src/App.tsx", "Agent #1 and Fixer also edit README.md"]);
    expect(within(cards[0]!()).queryByTestId("shared-files")).toBeNull();
    panel.send(agentLive("agent-2", { sharedFiles: [] }));
    expect(within(cards[1]!()).queryByTestId("shared-files")).toBeNull();
  });
});
